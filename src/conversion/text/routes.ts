// POST|GET /convert/html-markdown and /convert/markdown-html. GET carries a body like POST
// (the C# and Rust clients send GET with a body: docs/compatibility.md, "Bodies").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sizeText } from '../../http/error-handler.js'
import type { FastifyReply } from 'fastify'
import type { Work } from '../../work/work.js'
import type { WorkTask } from '../../work/tasks.js'
import { textFromBody } from './input.js'
import type { MarkdownOptions } from './markdown-to-html.js'
import {
  HtmlToMarkdownAnswerSchema, HtmlToMarkdownBodySchema, MarkdownOptionsQuerySchema,
  MarkdownToHtmlAnswerSchema, MarkdownToHtmlBodySchema
} from './schemas.js'

export interface TextConversionOptions {
  /** Largest body accepted, in bytes (config TEXT_BODY_LIMIT). */
  bodyLimit: number
  /** The worker pool the conversions run in (src/work/work.ts): never on the event loop. */
  work: Work
}

export const textConversionRoutes: FastifyPluginAsyncTypebox<TextConversionOptions> = async (app, { bodyLimit, work }) => {
  /**
   * Runs a conversion in the pool and sends its answer, which the worker wrote as JSON
   * (the schema's shape: the envelope, the field and `content`), so that the event loop
   * only passes the bytes on.
   */
  async function convert<K extends 'html-markdown' | 'markdown-html'> (reply: FastifyReply, task: Extract<WorkTask, { kind: K }>): Promise<FastifyReply> {
    let json: Uint8Array
    try {
      json = await work.run(task, { signal: reply.workSignal(), busy: 'WORK_BUSY', owner: reply.request.apiKey?.id, elapsedMs: reply.elapsedTime }) as Uint8Array
    } catch (err) {
      // Answered meanwhile (the deadline), or the client left.
      if (reply.sent || reply.raw.destroyed) return reply
      throw err
    }
    return reply.type('application/json; charset=utf-8').send(Buffer.from(json.buffer, json.byteOffset, json.byteLength))
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/convert/html-markdown',
    exposeHeadRoute: false,
    bodyLimit,
    config: { body: 'json-or-text', errors: ['TEXT_INPUT_MISSING', 'TEXT_INPUT_NOT_STRING', 'INVALID_UTF8', 'TEXT_OUTPUT_TOO_LARGE', 'TEXT_BUDGET_EXCEEDED', 'WORK_BUSY', 'TIMEOUT', 'WORK_TOO_LARGE'] },
    schema: {
      tags: ['conversion'],
      summary: 'Convert HTML to GitHub-flavoured Markdown',
      description: 'Headings, emphasis, links and images (titles kept), nested and ordered lists, block quotes, code, ' +
        'fenced code blocks (language kept), tables (alignment kept), strikethrough, task lists, rules and line breaks. ' +
        'Script, style, template, noscript and comments never reach the output; unknown tags keep their text. ' +
        `Body: the HTML (raw, JSON string, {"html"} or {"body"}), at most ${sizeText(bodyLimit)}.`,
      body: HtmlToMarkdownBodySchema,
      response: { 200: HtmlToMarkdownAnswerSchema }
    },
    handler: async (request, reply) => {
      const input = textFromBody(request.body, 'html')
      return await convert(reply, { kind: 'html-markdown', input })
    }
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/convert/markdown-html',
    exposeHeadRoute: false,
    bodyLimit,
    config: { body: 'json-or-text', errors: ['TEXT_INPUT_MISSING', 'TEXT_INPUT_NOT_STRING', 'INVALID_UTF8', 'TEXT_OUTPUT_TOO_LARGE', 'TEXT_BUDGET_EXCEEDED', 'WORK_BUSY', 'TIMEOUT', 'WORK_TOO_LARGE'] },
    schema: {
      tags: ['conversion'],
      summary: 'Convert Markdown (CommonMark + GFM) to HTML, safe by default',
      description: 'CommonMark 0.31.2 with GitHub tables, strikethrough and task lists. Raw HTML in the Markdown is ' +
        'escaped (shown as text) unless `unsafe=true`; javascript:, vbscript:, file: and non-image data: URLs never ' +
        'become links or images. Options go in the query string or the JSON object. ' +
        `Body: the Markdown (raw, JSON string, {"markdown"} or {"body"}), at most ${sizeText(bodyLimit)}.`,
      querystring: MarkdownOptionsQuerySchema,
      body: MarkdownToHtmlBodySchema,
      response: { 200: MarkdownToHtmlAnswerSchema }
    },
    handler: async (request, reply) => {
      const body = request.body
      const fromBody = (typeof body === 'object' && body !== null ? body : {}) as MarkdownOptions
      const q = request.query
      const options: MarkdownOptions = {
        breaks: fromBody.breaks ?? q.breaks,
        headingIds: fromBody.headingIds ?? q.headingIds,
        headingIdPrefix: fromBody.headingIdPrefix ?? q.headingIdPrefix,
        autolinks: fromBody.autolinks ?? q.autolinks,
        unsafe: fromBody.unsafe ?? q.unsafe
      }
      return await convert(reply, { kind: 'markdown-html', input: textFromBody(body, 'markdown'), options })
    }
  })
}
