// The limits of a /gen/custom picture (docs/generation.md, "Budgets"), apart from the
// schema (custom-schema.ts) so that the threads that draw (custom.ts, custom-checks.ts)
// read them without loading TypeBox, which costs each thread about 15 MB of RSS.

// Published limits of the hosted service.
export const CUSTOM_BODY_LIMIT = 10 * 1024 * 1024
export const MAX_IMAGES = 50
export const MAX_URL_IMAGES = 10
export const MAX_TEXTS = 50
export const MIN_SIDE = 1
export const MAX_SIDE = 3000
export const MAX_TEXT_LENGTH = 5000
export const MAX_TEXT_SIZE = 1000
// Budgets of one picture, decided before it is drawn (docs/generation.md, "Budgets").
/** Characters of all texts together. */
export const MAX_DRAWN_CHARACTERS = 20_000
/** Lines of all texts together, as written (before wrapping). */
export const MAX_DRAWN_LINES = 1000
/** Largest blur radius of a `filter` and of a text outline, in pixels: blur costs grow with it. */
export const MAX_BLUR_PX = 100
/**
 * Pixels blurred by `filter` in one picture, summed over its layers (each counted at most
 * once the canvas): a blur costs in proportion to the pixels it covers, and 50 full
 * layers of 3000×3000 blurred took 45 s of a core. One canvas of the largest size.
 */
export const MAX_BLURRED_PIXELS = MAX_SIDE * MAX_SIDE
/** Largest text outline width, in pixels. */
export const MAX_OUTLINE_WIDTH = 100
/** The `format` of a date text that sends none. */
export const DEFAULT_DATE_FORMAT = 'yyyy-MM-dd HH:mm'

/** The corners a triangle element may keep (`cut`). */
export const TRIANGLE_CORNERS = ['topleft', 'topright', 'bottomleft', 'bottomright'] as const
