// POST|GET /convert/html-markdown and /convert/markdown-html. GET carries a body like POST
// (the C# and Rust clients send GET with a body: ../shared/compat/existing-clients.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError } from '../../errors.js'
import { ok } from '../../http/envelope.js'
import { sendError } from '../../http/error-handler.js'
import { htmlToMarkdown } from './html-to-markdown.js'
import { textFromBody } from './input.js'
import { createMarkdownRenderer, type MarkdownOptions } from './markdown-to-html.js'
import {
  HtmlToMarkdownAnswerSchema, HtmlToMarkdownBodySchema, MarkdownOptionsQuerySchema,
  MarkdownToHtmlAnswerSchema, MarkdownToHtmlBodySchema
} from './schemas.js'

export interface TextConversionOptions {
  /** Largest body accepted, in bytes (config TEXT_BODY_LIMIT). */
  bodyLimit: number
}

function mebibytes (bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(2)} MiB` : `${+(bytes / 1024).toFixed(2)} KiB`
}

export const textConversionRoutes: FastifyPluginAsyncTypebox<TextConversionOptions> = async (app, { bodyLimit }) => {
  const renderer = createMarkdownRenderer()
  const tooLarge = `The text to convert is too large: these endpoints accept at most ${mebibytes(bodyLimit)} (${bodyLimit} bytes) per request`

  // Encapsulated: only these routes. The limit is named in the answer, whether the body
  // announced its size (Content-Length) or was cut off while streaming.
  app.setErrorHandler(function (err, request, reply) {
    const code = (err as { code?: string }).code
    return sendError(request, reply, code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? new AppError('BODY_TOO_LARGE', tooLarge, { cause: err }) : err)
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/convert/html-markdown',
    exposeHeadRoute: false,
    bodyLimit,
    config: { body: 'json-or-text', errors: ['TEXT_INPUT_MISSING', 'TEXT_INPUT_NOT_STRING', 'INVALID_UTF8'] },
    schema: {
      tags: ['conversion'],
      summary: 'Convert HTML to GitHub-flavoured Markdown',
      description: 'Headings, emphasis, links and images (titles kept), nested and ordered lists, block quotes, code, ' +
        'fenced code blocks (language kept), tables (alignment kept), strikethrough, task lists, rules and line breaks. ' +
        'Script, style, template, noscript and comments never reach the output; unknown tags keep their text. ' +
        `Body: the HTML (raw, JSON string, {"html"} or {"body"}), at most ${mebibytes(bodyLimit)}.`,
      body: HtmlToMarkdownBodySchema,
      response: { 200: HtmlToMarkdownAnswerSchema }
    },
    handler: async (request) => {
      const markdown = htmlToMarkdown(textFromBody(request.body, 'html'))
      return ok({ markdown, content: markdown })
    }
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/convert/markdown-html',
    exposeHeadRoute: false,
    bodyLimit,
    config: { body: 'json-or-text', errors: ['TEXT_INPUT_MISSING', 'TEXT_INPUT_NOT_STRING', 'INVALID_UTF8'] },
    schema: {
      tags: ['conversion'],
      summary: 'Convert Markdown (CommonMark + GFM) to HTML, safe by default',
      description: 'CommonMark 0.31.2 with GitHub tables, strikethrough and task lists. Raw HTML in the Markdown is ' +
        'escaped (shown as text) unless `unsafe=true`; javascript:, vbscript:, file: and non-image data: URLs never ' +
        'become links or images. Options go in the query string or the JSON object. ' +
        `Body: the Markdown (raw, JSON string, {"markdown"} or {"body"}), at most ${mebibytes(bodyLimit)}.`,
      querystring: MarkdownOptionsQuerySchema,
      body: MarkdownToHtmlBodySchema,
      response: { 200: MarkdownToHtmlAnswerSchema }
    },
    handler: async (request) => {
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
      const html = renderer.render(textFromBody(body, 'markdown'), options)
      return ok({ html, content: html })
    }
  })
}
