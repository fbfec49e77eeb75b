// Reading the uploaded image from the request stream, raw or multipart/form-data
// (../shared/compat/existing-clients.md: Python clients send a form with the image in
// field "file"; a C# helper sends the raw bytes). The size limit is enforced while
// reading: a declared Content-Length over it is refused before reading anything, and
// a stream that grows past it is refused at that byte, never buffered further.
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy'
import { AppError } from '../../errors.js'

/** The specification's limit on image data. */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024
/** Room for multipart boundaries, part headers and small fields around the file. */
export const MULTIPART_OVERHEAD_BYTES = 256 * 1024
const MAX_FORM_FIELDS = 16
const MAX_FORM_PARTS = 32
const MAX_FIELD_BYTES = 1024

export interface Upload {
  bytes: Buffer
  /** Small text fields of a multipart form (quality, background). */
  fields: Record<string, string>
}

function tooLarge (): AppError {
  // The rest of an oversized upload is not read: closing the connection stops it.
  return new AppError('BODY_TOO_LARGE', `The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB (${MAX_IMAGE_BYTES} bytes): send a smaller file`, {
    headers: { connection: 'close' },
    details: { maxBytes: MAX_IMAGE_BYTES }
  })
}

function isMultipart (headers: IncomingHttpHeaders): boolean {
  return /^multipart\/form-data\s*;/i.test(headers['content-type'] ?? '')
}

export function readUpload (headers: IncomingHttpHeaders, payload: Readable): Promise<Upload> {
  const declared = headers['content-length'] === undefined ? undefined : Number(headers['content-length'])
  const multipart = isMultipart(headers)
  const limit = multipart ? MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES : MAX_IMAGE_BYTES
  if (declared !== undefined && Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge())
  return multipart ? readMultipart(headers, payload, limit) : readRaw(payload, declared, limit)
}

function readRaw (payload: Readable, declared: number | undefined, limit: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const cleanup = () => {
      payload.off('data', onData)
      payload.off('end', onEnd)
      payload.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > limit) {
        cleanup()
        payload.pause()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      if (declared !== undefined && Number.isFinite(declared) && declared !== received) {
        reject(new AppError('BAD_CONTENT_LENGTH'))
        return
      }
      resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), fields: {} })
    }
    const onError = (err: Error) => {
      cleanup()
      reject(err)
    }
    payload.on('data', onData)
    payload.on('end', onEnd)
    payload.on('error', onError)
  })
}

function readMultipart (headers: IncomingHttpHeaders, payload: Readable, limit: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let busboy: InstanceType<typeof Busboy>
    try {
      busboy = new Busboy({
        headers: headers as BusboyHeaders,
        limits: { fileSize: MAX_IMAGE_BYTES, fields: MAX_FORM_FIELDS, parts: MAX_FORM_PARTS, fieldSize: MAX_FIELD_BYTES }
      })
    } catch (err) {
      reject(new AppError('BAD_REQUEST', `The multipart form cannot be read: ${(err as Error).message}`))
      return
    }
    let settled = false
    const fail = (err: unknown) => {
      if (settled) return
      settled = true
      payload.unpipe(busboy)
      payload.off('data', count)
      payload.pause()
      reject(err)
    }
    let received = 0
    const count = (chunk: Buffer) => {
      received += chunk.length
      if (received > limit) fail(tooLarge())
    }
    const fields: Record<string, string> = {}
    // The part named "file" wins; otherwise the first file part (compat notes).
    let chosen: { name: string, chunks: Buffer[], size: number } | undefined
    busboy.on('file', (name: string, stream: BusboyFileStream) => {
      const take = chosen === undefined || (name === 'file' && chosen.name !== 'file')
      if (!take) {
        stream.resume()
        return
      }
      const part = { name, chunks: [] as Buffer[], size: 0 }
      chosen = part
      stream.on('data', (chunk: Buffer) => {
        if (chosen !== part) return
        part.chunks.push(chunk)
        part.size += chunk.length
      })
      stream.on('limit', () => fail(tooLarge()))
    })
    busboy.on('field', (name: string, value: string) => {
      fields[name] = value
    })
    busboy.on('error', (err: Error) => fail(new AppError('BAD_REQUEST', `The multipart form cannot be read: ${err.message}`)))
    busboy.on('finish', () => {
      if (settled) return
      settled = true
      if (chosen === undefined) {
        reject(new AppError('EMPTY_BODY', 'The multipart form has no file part: send the image as a file in a part named "file"'))
        return
      }
      resolve({ bytes: Buffer.concat(chosen.chunks, chosen.size), fields })
    })
    payload.on('data', count)
    payload.on('error', fail)
    payload.pipe(busboy)
  })
}
