// What a schema says about itself in the OpenAPI document only, beside the TypeBox
// schemas that validate (src/http/openapi.ts reads these marks when it builds the
// document). The marks are symbol-keyed, so the validator (Ajv in strict mode) and the
// serializer never see them: documenting a closed set never changes which requests are
// accepted, nor the error a wrong value gets (TEMPLATE_NOT_FOUND, GIF_UNKNOWN_TYPE and
// parseFormat's messages stay the answers users read).

const COMPONENT = Symbol.for('utility-media-api.openapi.component')
const CLOSED_SET = Symbol.for('utility-media-api.openapi.closed-set')

export interface ClosedSet {
  /** Read when the document is built, from the code's own list. */
  values: () => readonly string[]
  /** The field also takes an image URL (banners and icons of the templates). */
  orUrl?: boolean
  /**
   * The field also reads other spellings of the values (a locale's `pt-br`, `zh`),
   * described so: the values are listed, and any string is documented as accepted too.
   */
  otherSpellings?: string
}

/** Names the schema as a shared component (`#/components/schemas/<name>`), referenced wherever it is used. */
export function component<T extends object> (name: string, schema: T): T {
  // Enumerable: TypeBox's Optional copies a schema with a spread, which keeps own
  // enumerable symbols (JSON and Ajv skip symbol keys either way).
  ;(schema as Record<symbol, unknown>)[COMPONENT] = name
  return schema
}

/**
 * Documents the closed set of values a string field takes, as an `enum`; or, for a field
 * that takes a URL or other spellings too, as an `anyOf` of that enum and a string.
 */
export function closedSet<T extends object> (schema: T, set: ClosedSet): T {
  ;(schema as Record<symbol, unknown>)[CLOSED_SET] = set
  return schema
}

export function componentNameOf (schema: object): string | undefined {
  return (schema as Record<symbol, string | undefined>)[COMPONENT]
}

export function closedSetOf (schema: object): ClosedSet | undefined {
  return (schema as Record<symbol, ClosedSet | undefined>)[CLOSED_SET]
}
