// The success envelope's fixed part (src/http/envelope.ts has the schemas), apart from
// TypeBox so that worker threads build their answers without loading it
// (docs/memory.md, "Worker threads").

/** The success envelope's fixed part, spread into a route's answer. */
export const OK = Object.freeze({ success: true as const, code: 200, message: '' })

export function ok<T extends object> (fields: T): T & typeof OK {
  return { ...OK, ...fields }
}

/**
 * The JSON of a text conversion's answer: the envelope, `field` and `content` (the C#
 * client reads `content`, docs/compatibility.md), the text stringified once for both:
 * the same bytes as JSON.stringify(ok({ [field]: text, content: text })) in about half
 * its time on a 13 KB answer (bench/text-conversion.bench.ts runs the request path).
 */
export function textAnswerJson (field: 'html' | 'markdown', text: string): Buffer {
  const quoted = JSON.stringify(text)
  return Buffer.from(`${OK_JSON_OPEN},"${field}":${quoted},"content":${quoted}}`)
}

/** `{"success":true,"code":200,"message":""`: the envelope's fixed part, left open. */
const OK_JSON_OPEN = JSON.stringify(OK).slice(0, -1)
