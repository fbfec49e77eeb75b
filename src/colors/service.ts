// The colour domain: answers for /color/info and /color/random from plain values.
import { AppError } from '../errors.js'
import { createColorCatalog, type ColorCatalog } from './catalog.js'
import { describe, type RgbValue } from './convert.js'
import { EXAMPLES, parseColorQuery, parseSeed } from './parse.js'
import { randomColor } from './random.js'
import type { ColorAnswer, ColorInfoQuery } from './schemas.js'

type Answer = Omit<ColorAnswer, 'success' | 'code' | 'message'>

export interface ColorService {
  readonly catalog: ColorCatalog
  info (query: ColorInfoQuery): Answer
  random (seed?: string): Answer
}

export function createColorService (catalog: ColorCatalog = createColorCatalog()): ColorService {
  function answer (color: RgbValue, alpha: number, knownName?: string): Answer {
    const facts = describe(color)
    const match = catalog.nearest(color)
    const comp = catalog.nearest(facts.complementary)
    const exact = knownName !== undefined || match.distance === 0
    return {
      r: color.r,
      g: color.g,
      b: color.b,
      ...facts,
      name: knownName ?? match.color.name,
      exactName: exact,
      nameDistance: knownName !== undefined ? 0 : Math.round(match.distance * 1000) / 1000,
      nameHex: knownName !== undefined ? facts.hex : match.color.hex,
      alpha,
      complementary: { ...facts.complementary, name: comp.color.name }
    }
  }

  return {
    catalog,
    info (query) {
      const q = parseColorQuery(query)
      if (q.kind !== 'name') return answer(q.value, q.alpha)
      const named = catalog.byName(q.name)
      if (!named) {
        const suggestions = catalog.suggest(q.name)
        const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ''
        throw new AppError('COLOR_NAME_NOT_FOUND', `No colour is named "${q.name}".${hint} Example: ${EXAMPLES.name}`, { details: { parameter: 'name', suggestions } })
      }
      return answer(named, 1, named.name)
    },
    random (rawSeed) {
      const seed = parseSeed(rawSeed)
      const result = answer(randomColor(seed), 1)
      return seed === undefined ? result : { ...result, seed }
    }
  }
}
