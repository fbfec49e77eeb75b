// Request and answer schemas of the text conversions (they produce /openapi.json).
import { Type, type Static } from 'typebox'
import { Envelope } from '../../http/envelope.js'

const Text = (what: string) => Type.Unknown({ description: `The ${what} to convert (a string)` })

export const HtmlToMarkdownBodySchema = Type.Union([
  Type.String({ description: 'The HTML itself (raw body, text/plain or no content type), or a JSON string' }),
  Type.Object({
    html: Type.Optional(Text('HTML')),
    body: Type.Optional(Text('HTML; used when "html" is absent (Rust client)'))
  }, { additionalProperties: true })
], { description: 'The HTML: as the raw body, a JSON string, JSON {"html": "..."} or JSON {"body": "..."}' })

const OptionFields = {
  breaks: Type.Optional(Type.Boolean({ description: 'Soft line breaks become <br /> (chat-style Markdown). Default false' })),
  headingIds: Type.Optional(Type.Boolean({ description: 'Headings get an id from their text as GitHub computes it ("Hello World" → "hello-world", repeats get -1, -2). Default false' })),
  headingIdPrefix: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_:.-]*$', description: 'Put before every heading id, e.g. "user-content-" as GitHub does. Default ""' })),
  autolinks: Type.Optional(Type.Boolean({ description: 'GFM extended autolinks: bare URLs, www. addresses and e-mail addresses become links. Default false (CommonMark leaves them as text)' })),
  unsafe: Type.Optional(Type.Boolean({ description: 'Pass raw HTML in the Markdown through unescaped. The answer may then carry script: only for HTML you trust. Default false (raw HTML is escaped)' }))
}

export const MarkdownOptionsQuerySchema = Type.Object(OptionFields)
export type MarkdownOptionsQuery = Static<typeof MarkdownOptionsQuerySchema>

export const MarkdownToHtmlBodySchema = Type.Union([
  Type.String({ description: 'The Markdown itself (raw body, text/plain or no content type), or a JSON string' }),
  Type.Object({
    markdown: Type.Optional(Text('Markdown')),
    body: Type.Optional(Text('Markdown; used when "markdown" is absent (Rust client)')),
    ...OptionFields
  }, { additionalProperties: true })
], { description: 'The Markdown: as the raw body, a JSON string, JSON {"markdown": "..."} or JSON {"body": "..."}; options in the query or the JSON object' })

export const HtmlToMarkdownAnswerSchema = Envelope({
  markdown: Type.String({ description: 'The GitHub-flavoured Markdown' }),
  content: Type.String({ description: 'The same Markdown (the C# client reads this field)' })
})

export const MarkdownToHtmlAnswerSchema = Envelope({
  html: Type.String({ description: 'The HTML fragment' }),
  content: Type.String({ description: 'The same HTML (the C# client reads this field)' })
})
