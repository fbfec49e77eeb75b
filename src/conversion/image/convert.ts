// The conversion itself: any accepted image to PNG, JPEG or WebP with sharp (libvips).
// Takes bytes and plain options, returns bytes and what they are; throws AppError.
// Safety: the format is recognised from the first bytes before libvips sees them (only
// the accepted formats reach it: never SVG, PDF or anything else libvips could parse);
// the header is read next and the pixel and frame counts checked before any
// decoding (decompression bombs); libvips also enforces the pixel limit itself
// (limitInputPixels) and aborts a conversion past its time limit: the smaller of
// IMAGE_TIMEOUT_MS and what remains of the request's deadline. In three steps, which the
// route runs in order around its admission (routes.ts: inspect, admit, reserve, encode):
// inspect reads and checks the header, plan says what the conversion will cost (its
// pixels, its encoder, its memory: pixels × what its output holds per pixel), encode
// decodes and encodes.
import sharp, { type OutputInfo } from 'sharp'
import { AppError } from '../../errors.js'
import {
  ACCEPTED_INPUTS, ANIMATED_INPUTS, DEFAULT_QUALITY, type InputFormat, type OutputFormat,
  acceptedInput, losslessPngOptions, refusedName, unreadableName
} from './formats.js'
import { readHeader, type SourceHeader } from '../../images/header.js'
import { checkSource } from '../../images/limits.js'
import { sniff } from '../../images/sniff.js'
import type { Rgba } from './background.js'

export interface ConverterOptions {
  maxPixels: number
  maxFrames: number
  timeoutMs: number
}

/**
 * Bytes a conversion holds per pixel of its input (every frame counted), at most: the
 * decoded picture and the encoder's own buffers, measured on grain, the worst case
 * (docs/image-conversion.md, "Memory"). WebP at sharp's effort 4 keeps every block's
 * coefficients for its second pass; JPEG's optimised Huffman coding keeps them too; a
 * palette PNG quantises the whole picture at once.
 */
export const BYTES_PER_PIXEL = { webp: 22, jpeg: 10, png: 8, pngPalette: 25 } as const

/** The most a conversion of `pixels` to `format` holds (BYTES_PER_PIXEL), in bytes. */
export function conversionBytes (pixels: number, format: OutputFormat, quality: number | undefined): number {
  const perPixel = format === 'png' ? (quality === undefined || quality === 100 ? BYTES_PER_PIXEL.png : BYTES_PER_PIXEL.pngPalette) : BYTES_PER_PIXEL[format]
  return pixels * perPixel
}

export interface ConvertRequest {
  format: OutputFormat
  /** 1..100; undefined = the format's default (DEFAULT_QUALITY). */
  quality?: number
  /** What transparency is flattened onto for JPEG. */
  background: Rgba
  /** Time left for this conversion (what remains of the request's deadline); the smaller of it and the converter's limit applies. */
  timeoutMs?: number
}

/** What a conversion will process, known from the header before any decoding. */
export interface ConversionWork {
  /** Pixels decoded and encoded (every frame for an animated WebP, the first for the others). */
  pixels: number
  /** The encoder, as the cost model tells them apart. */
  encoder: 'webp' | 'jpeg' | 'png' | 'png-palette'
  /** The most it holds while it runs (conversionBytes), reserved from IMAGE_MEMORY before it decodes. */
  bytes: number
}

/** An image as its header declares it, checked. */
export interface InspectedImage { format: InputFormat, width: number, height: number, frames: number }

export interface ConvertResult {
  data: Buffer
  format: OutputFormat
  width: number
  /** Height of one frame. */
  height: number
  frames: number
  input: InputFormat
}

export interface ImageConverter {
  /** Recognises the format and reads and checks the header, before any decoding (415, 422). */
  inspect (input: Buffer): Promise<InspectedImage>
  /** What converting `source` as asked will process and hold. */
  plan (source: InspectedImage, request: ConvertRequest): ConversionWork
  /** Decodes and encodes: run once the conversion has its lane and its memory. */
  encode (input: Buffer, source: InspectedImage, request: ConvertRequest): Promise<ConvertResult>
  /** inspect then encode, at once and without admission or memory (tools and tests). */
  convert (input: Buffer, request: ConvertRequest): Promise<ConvertResult>
}

const ACCEPTED_LIST = ACCEPTED_INPUTS.join(', ')

/** 415 naming what was sent when known ("a BMP image") and listing what is accepted. */
function unsupported (sent: string | undefined): AppError {
  const what = sent === undefined ? 'The body is not an image in a format this endpoint reads' : `The body is ${sent}, which this endpoint does not read`
  return new AppError('IMAGE_UNSUPPORTED_FORMAT', `${what}: send ${ACCEPTED_LIST}`, {
    details: { acceptedFormats: [...ACCEPTED_INPUTS] }
  })
}

/** libvips messages that mean the input itself is bad (rather than our fault). */
const INPUT_ERROR = /unsupported image format|corrupt|truncat|premature|invalid|bad |not a |read error|load|decode|unexpected end|out of order|huffman|marker|crc|zlib|inflate|libspng|gifload|webp|heif|tiff|jpeg|png|exceeds pixel limit/i

/**
 * `load` is sharp itself; tests hand in a wrapper that records what reaches libvips.
 */
export function createImageConverter (options: ConverterOptions, load: typeof sharp = sharp): ImageConverter {
  // Every input here is new: libvips' operation cache would only hold memory.
  sharp.cache(false)
  const defaultSeconds = Math.max(1, Math.ceil(options.timeoutMs / 1000))

  /**
   * libvips counts whole seconds. The converter's own limit is rounded up (as
   * documented); a request's remaining time is rounded down so the work stops by the
   * request's deadline, but never below one second (0 would mean no limit at all).
   */
  function secondsFor (request: ConvertRequest): number {
    if (request.timeoutMs === undefined || request.timeoutMs >= options.timeoutMs) return defaultSeconds
    return Math.max(1, Math.floor(request.timeoutMs / 1000))
  }

  async function inspect (input: Buffer): Promise<InspectedImage> {
    // The source-image gate (src/images/limits.ts): sniffed, header read, limits checked.
    if (sniff(input)?.readable !== true) throw unsupported(unreadableName(input))
    let header: SourceHeader
    try {
      header = await readHeader(input, { failOn: 'error', load })
    } catch (err) {
      if (/unsupported image format/i.test((err as Error).message)) throw unsupported(unreadableName(input))
      throw new AppError('IMAGE_INVALID', undefined, { cause: err })
    }
    const format = acceptedInput(header.format, header.compression)
    if (format === undefined) throw unsupported(refusedName(String(header.format)))
    const { width, height } = header
    // A TIFF's pages are separate pictures: only GIF and WebP frames are an animation.
    const frames = ANIMATED_INPUTS.has(format) ? header.frames : 1
    // Counted over every frame: a small GIF of thousands of frames is as costly as one huge picture.
    const check = checkSource({ width, height, frames }, { maxFrames: options.maxFrames, maxPixels: options.maxPixels })
    if (!check.ok) {
      if (check.limit === 'size') throw new AppError('IMAGE_INVALID', 'The image declares no width or height: the file is corrupt')
      if (check.limit === 'frames') {
        throw new AppError('IMAGE_TOO_MANY_FRAMES',
          `The animation declares ${frames} frames; this server converts at most ${check.max}: send a shorter animation`,
          { details: { frames, maxFrames: check.max } })
      }
      throw new AppError('IMAGE_TOO_MANY_PIXELS',
        `The image declares ${width}×${height} pixels${frames > 1 ? ` × ${frames} frames` : ''} = ${check.value} pixels; this server converts at most ${check.max}: send a smaller image`,
        { details: { pixels: check.value, maxPixels: check.max } })
    }
    return { format, width, height, frames }
  }

  function plan (source: InspectedImage, request: ConvertRequest): ConversionWork {
    const quality = request.quality ?? DEFAULT_QUALITY[request.format]
    // JPEG and PNG take the first frame only; an animated WebP keeps them all.
    const pixels = source.width * source.height * (request.format === 'webp' ? source.frames : 1)
    const encoder = request.format === 'png' ? (quality === undefined || quality === 100 ? 'png' : 'png-palette') : request.format
    return { pixels, encoder, bytes: conversionBytes(pixels, request.format, quality) }
  }

  return {
    inspect,
    plan,
    encode,
    async convert (input, request) {
      if (input.length === 0) throw new AppError('EMPTY_BODY', 'The request body is empty: send the image as the body, or as the "file" field of a multipart form')
      return await encode(input, await inspect(input), request)
    }
  }

  async function encode (input: Buffer, source: InspectedImage, request: ConvertRequest): Promise<ConvertResult> {
    const quality = request.quality ?? DEFAULT_QUALITY[request.format]
    const timeoutSeconds = secondsFor(request)
    // Only WebP output keeps an animation; JPEG and PNG take the first frame.
    const animated = request.format === 'webp' && source.frames > 1
    let pipeline = load(input, {
      failOn: 'error',
      limitInputPixels: options.maxPixels,
      animated,
      pages: animated ? -1 : 1
    })
      .timeout({ seconds: timeoutSeconds })
      // EXIF orientation applied; sharp writes no metadata (EXIF, GPS, XMP, IPTC) unless
      // asked, and converts an embedded colour profile to sRGB before dropping it.
      .rotate()
    switch (request.format) {
      case 'jpeg':
        pipeline = pipeline.flatten({ background: request.background }).jpeg({ quality })
        break
      case 'webp':
        pipeline = pipeline.webp({ quality })
        break
      case 'png':
        // PNG is lossless; a quality below 100 asks for palette quantisation (libimagequant).
        pipeline = quality === undefined || quality === 100 ? pipeline.png(losslessPngOptions(source.format)) : pipeline.png({ quality, palette: true })
        break
    }
    let out: { data: Buffer, info: OutputInfo }
    try {
      out = await pipeline.toBuffer({ resolveWithObject: true })
    } catch (err) {
      const message = (err as Error).message ?? ''
      if (/timeout/i.test(message)) {
        throw new AppError('IMAGE_TIMEOUT', `The conversion took longer than ${timeoutSeconds} s and was stopped: send a smaller image, or try again later`, { cause: err })
      }
      if (INPUT_ERROR.test(message)) throw new AppError('IMAGE_INVALID', undefined, { cause: err })
      throw err
    }
    const frames = animated ? source.frames : 1
    return {
      data: out.data,
      format: request.format,
      width: out.info.width,
      height: animated ? out.info.height / frames : out.info.height,
      frames,
      input: source.format
    }
  }
}
