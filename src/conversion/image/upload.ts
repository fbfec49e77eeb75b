// Reading the uploaded image from the request stream, raw or multipart/form-data
// (docs/compatibility.md, "Image uploads": Python clients send a form with the image in
// field "file"; a C# helper sends the raw bytes). The size limit is enforced while
// reading: a declared Content-Length over it is refused before reading anything, and
// a stream that grows past it is refused at that byte, never buffered further.
// What follows is read and dropped, up to MAX_DISCARD_BYTES, before answering 413: a
// client that sends its whole body before reading the answer (most do) then gets the
// 413 envelope instead of a connection reset (nginx's "lingering close" does the same).
// A declared length beyond even that, or a longer stream, is answered at once and the
// connection closed.
// An upload also has a pace (docs/image-conversion.md, "Slow uploads"): the whole body
// within a deadline, and after a grace period a minimum average rate, so a client
// trickling bytes cannot hold a conversion place for long. Every stream read here
// (the request, the form parser, each file part) has its errors handled: a form cut
// off inside a part makes the part's stream fail, and an unheard 'error' ends the process.
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { Busboy, type BusboyFileStream, type BusboyHeaders } from '@fastify/busboy'
import { AppError, isAppError } from '../../errors.js'
import type { BodyBuffers } from './body-buffers.js'

/** The specification's limit on image data. */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024
/** Room for multipart boundaries, part headers and small fields around the file. */
export const MULTIPART_OVERHEAD_BYTES = 256 * 1024
/** How much of an oversized upload is read and dropped so the client can read the 413. */
export const MAX_DISCARD_BYTES = 16 * 1024 * 1024
const MAX_FORM_FIELDS = 16
const MAX_FORM_PARTS = 32
const MAX_FIELD_BYTES = 1024

/** How fast an upload must arrive (config: IMAGE_UPLOAD_TIMEOUT_MS, IMAGE_UPLOAD_MIN_RATE, IMAGE_UPLOAD_GRACE_MS). */
export interface UploadPace {
  /** The whole body within this long of the start of reading. */
  timeoutMs: number
  /** After `graceMs`, at least this many bytes per second on average (0: no minimum). */
  minBytesPerSecond: number
  graceMs: number
}

export interface Upload {
  bytes: Buffer
  /** Small text fields of a multipart form (quality, background). */
  fields: Record<string, string>
  /** Gives `bytes` back for reuse (body-buffers.ts): once nothing reads them any more. */
  recycle?: () => void
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

/**
 * `signal` stops the reading (the request was answered meanwhile, at its deadline):
 * Node then reads and drops the rest of the body itself, with our listeners removed, and
 * may never say when it is done, so waiting on it would hold the request's place forever.
 */
export function readUpload (headers: IncomingHttpHeaders, payload: Readable, pace?: UploadPace, signal?: AbortSignal, buffers?: BodyBuffers): Promise<Upload> {
  const declared = headers['content-length'] === undefined ? undefined : Number(headers['content-length'])
  const multipart = isMultipart(headers)
  const limit = multipart ? MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES : MAX_IMAGE_BYTES
  if (declared !== undefined && Number.isFinite(declared) && declared > limit) {
    if (declared > limit + MAX_DISCARD_BYTES) return Promise.reject(tooLarge())
    return discardRest(payload).then(() => { throw tooLarge() })
  }
  const reading = multipart ? readMultipart(headers, payload, limit, buffers) : readRaw(payload, declared, limit, buffers)
  return pace === undefined && signal === undefined ? reading : paced(payload, reading, pace, signal)
}

function tooSlow (pace: UploadPace, received: number, elapsedMs: number): AppError {
  const rate = Math.round(received / Math.max(1, elapsedMs / 1000))
  const rule = elapsedMs >= pace.timeoutMs
    ? `the whole body must arrive within ${pace.timeoutMs / 1000} s`
    : `after ${pace.graceMs / 1000} s an upload must average at least ${pace.minBytesPerSecond} bytes per second`
  return new AppError('UPLOAD_TOO_SLOW', `The upload arrived too slowly (${received} bytes in ${(elapsedMs / 1000).toFixed(1)} s, ${rate} bytes/s) and was stopped: ${rule}. Send the body without pausing, or a smaller file`, {
    // The rest of the body is not read: the connection closes after the answer.
    headers: { connection: 'close' },
    details: { receivedBytes: received, elapsedMs: Math.round(elapsedMs), minBytesPerSecond: pace.minBytesPerSecond, timeoutMs: pace.timeoutMs }
  })
}

/**
 * Watches the bytes arriving while `reading` runs; fails with UPLOAD_TOO_SLOW when the
 * deadline passes, or when the bytes received fall behind the minimum rate after the
 * grace period (the allowed time grows by one second per minBytesPerSecond received,
 * as Apache's mod_reqtimeout MinRate does). One timer, moved only when it fires.
 */
function paced (payload: Readable, reading: Promise<Upload>, pace: UploadPace | undefined, signal: AbortSignal | undefined): Promise<Upload> {
  const startedAt = performance.now()
  let received = 0
  const count = (chunk: Buffer): void => { received += chunk.length }
  payload.on('data', count)
  return new Promise<Upload>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const allowedMs = (): number => {
      if (pace === undefined) return Infinity
      const byRate = pace.minBytesPerSecond > 0 ? pace.graceMs + received * 1000 / pace.minBytesPerSecond : Infinity
      return Math.min(pace.timeoutMs, byRate)
    }
    const check = (): void => {
      const elapsed = performance.now() - startedAt
      if (elapsed >= allowedMs()) {
        settle()
        payload.pause()
        reject(tooSlow(pace!, received, elapsed))
        return
      }
      timer = setTimeout(check, Math.max(10, allowedMs() - elapsed))
    }
    let settled = false
    const onAbort = (): void => {
      if (settled) return
      settle()
      // An upload shed to make room for another key's (src/work/byte-budget.ts) says why.
      reject(isAppError(signal?.reason) ? signal.reason : new AppError('CLIENT_CLOSED', 'The request was answered before its upload had arrived'))
    }
    const settle = (): void => {
      settled = true
      clearTimeout(timer)
      payload.off('data', count)
      signal?.removeEventListener('abort', onAbort)
    }
    if (pace !== undefined) timer = setTimeout(check, allowedMs())
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort)
    reading.then((upload) => {
      if (settled) return
      settle()
      resolve(upload)
    }, (err: unknown) => {
      if (settled) return
      settle()
      reject(err)
    })
  })
}

/** The request stream closed before its end: the client went away (or the server cut it). */
function clientClosed (): AppError {
  return new AppError('CLIENT_CLOSED', 'The client closed the connection before the whole upload arrived')
}

/** Reads and drops the rest of the stream, up to MAX_DISCARD_BYTES; resolves at its end or past that. */
function discardRest (payload: Readable): Promise<void> {
  return new Promise((resolve) => {
    let discarded = 0
    const finish = () => {
      payload.off('data', onData)
      payload.off('end', finish)
      payload.off('error', finish)
      payload.off('close', finish)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      discarded += chunk.length
      if (discarded > MAX_DISCARD_BYTES) {
        payload.pause()
        finish()
      }
    }
    payload.on('data', onData)
    payload.on('end', finish)
    payload.on('error', finish)
    payload.on('close', finish)
    payload.resume()
  })
}

/** `chunks` (of `size` bytes together) in one buffer, from `buffers` when given. */
function joined (chunks: Buffer[], size: number, buffers: BodyBuffers | undefined): Pick<Upload, 'bytes' | 'recycle'> {
  if (buffers === undefined || chunks.length === 1) return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) }
  const taken = buffers.take(size)
  let at = 0
  for (const chunk of chunks) at += chunk.copy(taken.bytes, at)
  return taken
}

function readRaw (payload: Readable, declared: number | undefined, limit: number, buffers: BodyBuffers | undefined): Promise<Upload> {
  return new Promise((resolve, reject) => {
    // A declared length within the limit is allocated once: no second copy when the body ends.
    const known = declared !== undefined && Number.isInteger(declared) && declared >= 0
    const taken: Pick<Upload, 'bytes' | 'recycle'> | undefined = known ? (buffers?.take(declared) ?? { bytes: Buffer.allocUnsafe(declared) }) : undefined
    const whole = taken?.bytes
    const chunks: Buffer[] = []
    let received = 0
    const cleanup = () => {
      payload.off('data', onData)
      payload.off('end', onEnd)
      payload.off('error', onError)
      payload.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > limit || (whole !== undefined && received + chunk.length > whole.length)) {
        cleanup()
        taken?.recycle?.()
        chunks.length = 0
        if (received + chunk.length > limit) discardRest(payload).then(() => reject(tooLarge()))
        else reject(new AppError('BAD_CONTENT_LENGTH'))
        return
      }
      if (whole !== undefined) chunk.copy(whole, received)
      else chunks.push(chunk)
      received += chunk.length
    }
    const onEnd = () => {
      cleanup()
      if (whole !== undefined) {
        if (received === whole.length) resolve({ ...taken!, fields: {} })
        else {
          taken!.recycle?.()
          reject(new AppError('BAD_CONTENT_LENGTH'))
        }
        return
      }
      resolve({ ...joined(chunks, received, buffers), fields: {} })
    }
    const onError = (err: Error) => {
      cleanup()
      reject(err)
    }
    const onClose = () => {
      cleanup()
      reject(clientClosed())
    }
    payload.on('data', onData)
    payload.on('end', onEnd)
    payload.on('error', onError)
    payload.on('close', onClose)
  })
}

function readMultipart (headers: IncomingHttpHeaders, payload: Readable, limit: number, buffers: BodyBuffers | undefined): Promise<Upload> {
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
    const fail = (err: unknown, discard = false) => {
      if (settled) return
      settled = true
      payload.unpipe(busboy)
      payload.off('data', count)
      payload.off('close', onClose)
      chosen = undefined
      if (discard) discardRest(payload).then(() => reject(err))
      else {
        payload.pause()
        reject(err)
      }
    }
    let received = 0
    const count = (chunk: Buffer) => {
      received += chunk.length
      if (received > limit) fail(tooLarge(), true)
    }
    const fields: Record<string, string> = {}
    // The part named "file" wins; otherwise the first file part (compat notes).
    let chosen: { name: string, chunks: Buffer[], size: number } | undefined
    // A form cut off inside a part fails the part's stream as well as the parser.
    const truncated = (err: Error) => fail(new AppError('BAD_REQUEST', `The multipart form cannot be read: ${err.message}: the upload is truncated or malformed`))
    busboy.on('file', (name: string, stream: BusboyFileStream) => {
      stream.on('error', truncated)
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
      stream.on('limit', () => fail(tooLarge(), true))
    })
    busboy.on('field', (name: string, value: string) => {
      fields[name] = value
    })
    busboy.on('error', (err: Error) => fail(new AppError('BAD_REQUEST', `The multipart form cannot be read: ${err.message}`)))
    busboy.on('finish', () => {
      if (settled) return
      settled = true
      payload.off('close', onClose)
      if (chosen === undefined) {
        reject(new AppError('EMPTY_BODY', 'The multipart form has no file part: send the image as a file in a part named "file"'))
        return
      }
      resolve({ ...joined(chosen.chunks, chosen.size, buffers), fields })
    })
    // 'close' before busboy's 'finish': the request stream ended without its end.
    const onClose = () => { if (!payload.readableEnded) fail(clientClosed()) }
    payload.on('data', count)
    payload.on('error', fail)
    payload.on('close', onClose)
    payload.pipe(busboy)
  })
}
