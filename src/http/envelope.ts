// The envelope every JSON answer carries: `success`, `code` (equal to the HTTP status)
// and `message` ("" on success), as every existing client reads it
// (docs/compatibility.md, "Errors").
import { Type, type Static, type TProperties } from 'typebox'

export const EnvelopeFields = {
  success: Type.Boolean({ description: 'true on success, false on failure' }),
  code: Type.Integer({ description: 'The HTTP status of the answer', examples: [200] }),
  message: Type.String({ description: 'Empty on success; on failure, what went wrong and what to do about it' })
}

/** A success answer: the envelope plus the route's own fields. */
export function Envelope<T extends TProperties> (fields: T, options: { description?: string } = {}) {
  return Type.Object({ ...EnvelopeFields, ...fields }, options)
}

export const ErrorEnvelopeSchema = Type.Object({
  success: Type.Literal(false),
  code: Type.Integer({ description: 'The HTTP status of the answer', examples: [400] }),
  message: Type.String({ description: 'What went wrong, and what to do about it' }),
  error: Type.String({ description: 'Stable error code from the catalogue, for programs', examples: ['VALIDATION'] }),
  requestId: Type.String({ description: 'The request id, also in the X-Request-Id header: quote it when reporting a failure' })
}, { $id: 'ErrorEnvelope', description: 'Every failure, on every route, is answered with this JSON envelope', additionalProperties: true })
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>

export { OK, ok } from './success.js'
