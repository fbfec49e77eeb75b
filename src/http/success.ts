// The success envelope's fixed part (src/http/envelope.ts has the schemas), apart from
// TypeBox so that worker threads build their answers without loading it
// (docs/memory.md, "Worker threads").

/** The success envelope's fixed part, spread into a route's answer. */
export const OK = Object.freeze({ success: true as const, code: 200, message: '' })

export function ok<T extends object> (fields: T): T & typeof OK {
  return { ...OK, ...fields }
}
