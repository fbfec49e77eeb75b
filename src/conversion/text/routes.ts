// POST|GET /convert/html-markdown and /convert/markdown-html. GET carries a body like POST
// (the C# and Rust clients send GET with a body: docs/compatibility.md, "Bodies").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sizeText } from '../../http/error-handler.js'
import type { FastifyReply } from 'fastify'
import { type CostPrior, threadCode, type ThreadCode, type Work } from '../../work/work.js'
import { textFromBody } from './input.js'
import type { MarkdownOptions } from './markdown-to-html.js'
import type * as thread from './thread.js'
import {
  HtmlToMarkdownAnswerSchema, HtmlToMarkdownBodySchema, MarkdownOptionsQuerySchema,
  MarkdownToHtmlAnswerSchema, MarkdownToHtmlBodySchema
} from './schemas.js'

export interface TextConversionOptions {
  /** Largest body accepted, in bytes (config TEXT_BODY_LIMIT). */
  bodyLimit: number
  /** The heavy work's engine (src/work/work.ts): the conversions run on its threads, never on the event loop. */
  work: Work
}

/** The conversions' thread code (thread.ts), run by src/work/. */
const HTML_TO_MARKDOWN = threadCode<typeof thread.htmlToMarkdown>(new URL('./thread.js', import.meta.url), 'htmlToMarkdown')
const MARKDOWN_TO_HTML = threadCode<typeof thread.markdownToHtml>(new URL('./thread.js', import.meta.url), 'markdownToHtml')

/**
 * Running time of a conversion on one thread of a 2-core machine, by its characters
 * (bench/bursts.bench.ts): 10 KB of Markdown about 0.8 ms, 14 KB of HTML 0.4 ms.
 */
export const TEXT_PRIORS = {
  'html-markdown': { baseMs: 0.05, msPerUnit: 0.00003 },
  'markdown-html': { baseMs: 0.05, msPerUnit: 0.00008 }
} satisfies Record<string, CostPrior>

export const textConversionRoutes: FastifyPluginAsyncTypebox<TextConversionOptions> = async (app, { bodyLimit, work }) => {
  /**
   * Runs a conversion in the pool and sends its answer, which the worker wrote as JSON
   * (the schema's shape: the envelope, the field and `content`), so that the event loop
   * only passes the bytes on.
   */
  async function convert<I> (reply: FastifyReply, kind: keyof typeof TEXT_PRIORS, code: ThreadCode<I, Uint8Array>, input: I, characters: number): Promise<FastifyReply> {
    let json: Uint8Array
    try {
      json = await work.thread(code, input, { kind, units: characters }, { signal: reply.workSignal(), busy: 'WORK_BUSY', owner: reply.request.apiKey?.id, elapsedMs: reply.elapsedTime })
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
      return await convert(reply, 'html-markdown', HTML_TO_MARKDOWN, input, input.length)
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
      const markdown = textFromBody(body, 'markdown')
      return await convert(reply, 'markdown-html', MARKDOWN_TO_HTML, { markdown, options }, markdown.length)
    }
  })
}
