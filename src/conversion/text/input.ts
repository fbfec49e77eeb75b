// Which text a request carries. The existing clients send it four ways
// (docs/compatibility.md, "Text conversion"):
// JSON {"html"|"markdown": ...} (JS, Ruby, one Python), JSON {"body": ...} (Rust), the raw
// text (text/plain or no content type: another Python, C#) and a JSON string (C#).
import { AppError } from '../../errors.js'

/** The body as the shared 'json-or-text' mode decodes it: parsed JSON or the raw string. */
export type TextBody = unknown

/**
 * The text to convert. `field` is the endpoint's own field name ("html" or "markdown");
 * it wins over "body", then "text" and "content" (names other clients of text APIs use).
 */
export function textFromBody (body: TextBody, field: 'html' | 'markdown'): string {
  let value: unknown = body
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>
    const name = [field, 'body', 'text', 'content'].find((k) => fields[k] !== undefined && fields[k] !== null)
    if (name === undefined) {
      throw new AppError('TEXT_INPUT_MISSING', `Nothing to convert: the JSON body has no "${field}" field. Send {"${field}": "..."}, {"body": "..."}, a JSON string, or the ${field === 'html' ? 'HTML' : 'Markdown'} itself as the body`)
    }
    value = fields[name]
    if (typeof value !== 'string') {
      throw new AppError('TEXT_INPUT_NOT_STRING', `The "${name}" field must be a string, got ${Array.isArray(value) ? 'an array' : typeof value}`)
    }
  } else if (typeof body !== 'string' && body !== undefined && body !== null) {
    throw new AppError('TEXT_INPUT_NOT_STRING', `The body must be the text, a JSON string or a JSON object with a "${field}" field, got a JSON ${Array.isArray(body) ? 'array' : typeof body}`)
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError('TEXT_INPUT_MISSING', `Nothing to convert: the ${field === 'html' ? 'HTML' : 'Markdown'} is empty. Send it as the raw body, as a JSON string, or as {"${field}": "..."}`)
  }
  return value
}
