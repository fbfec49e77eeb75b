// The TypeScript source of src/schema.ts for an OpenAPI document: openapi-typescript with
// one rule of this client's. Used by scripts/generate.mjs, and by the test that checks
// src/schema.ts is the current document's (test/system/clients/typescript-client.test.ts).
import openapiTS, { astToString, STRING, tsIntersection, tsLiteral, tsUnion } from 'openapi-typescript'
import ts from 'typescript'

/** Where the types are written, a schema's values of an open set (below). */
const OPEN_SET = 'x-client-open-set'

/**
 * The values of a string field that is one of them or another string (the document's
 * anyOf of an enum and a plain string: a locale's other spellings, a banner's image URL),
 * or undefined.
 */
function openSetValues (schema) {
  if (schema.type !== 'string' || !Array.isArray(schema.anyOf)) return undefined
  const branches = schema.anyOf
  if (!branches.every((b) => b !== null && typeof b === 'object' && b.type === 'string')) return undefined
  const listed = branches.filter((b) => Array.isArray(b.enum))
  return listed.length === 1 && branches.length > 1 ? listed[0].enum : undefined
}

/** A copy of `node` whose open sets are marked with their values in place of the anyOf. */
function markOpenSets (node) {
  if (Array.isArray(node)) return node.map(markOpenSets)
  if (node === null || typeof node !== 'object') return node
  const values = openSetValues(node)
  if (values !== undefined) {
    const { anyOf, ...rest } = node
    return { ...rest, [OPEN_SET]: values }
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, markOpenSets(value)]))
}

/**
 * An open set typed as its values or any string: `"fr" | "pt-BR" | (string & {})`.
 * openapi-typescript writes the anyOf as `"fr" | "pt-BR" | string`, which TypeScript
 * reduces to `string`, so an editor offers none of the values; `string & {}` takes any
 * string and keeps them offered.
 */
function openSetType (schema) {
  const values = schema[OPEN_SET]
  if (!Array.isArray(values)) return undefined
  const anyString = ts.factory.createParenthesizedType(tsIntersection([STRING, ts.factory.createTypeLiteralNode([])]))
  return tsUnion([...values.map((value) => tsLiteral(value)), anyString])
}

/** src/schema.ts without its header: the types of an OpenAPI document (a parsed object). */
export async function schemaTypes (document) {
  return astToString(await openapiTS(markOpenSets(document), { transform: openSetType }))
}
