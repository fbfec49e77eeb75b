// The quote card: a message in large type with its author's avatar and name.
import type { Sized } from '../drawable.js'
import { colorField } from '../canvas/color.js'
import { fillTextLine, fitText, wrapText } from '../canvas/draw.js'
import { direction, label, localeOf } from '../locale/locale.js'
import { initialOf } from '../text/graphemes.js'
import { drawLine } from '../text/inline-text.js'
import { drawnText, markText, nameForInitial } from '../text/markup.js'
import { textDirection } from '../text/scripts.js'
import { COLOR_HINT, displayName, drawAvatar, LOCALE_FIELD, optionalImage, placement, startCard } from './card.js'
import { sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

export const quote: Template = {
  name: 'quote',
  summary: 'A quote card: a message in large type with the author\'s avatar and name',
  defaultFormat: 'png',
  imageBoxes: { avatar: { width: 200, height: 200 } },
  fields: {
    text: { description: 'The quoted message; wraps, and shrinks when long', default: '…' },
    username: { description: 'Who said it', default: 'Someone' },
    avatar: { description: 'URL of the author\'s avatar image' },
    background: { description: `Background colour ${COLOR_HINT}`, default: '#1e1f22' },
    color_text: { description: `Text colour ${COLOR_HINT}`, default: 'white' },
    font: { description: 'A name from /list/fonts', default: 'Noto Serif' },
    locale: LOCALE_FIELD
  },
  async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
    const W = 1024
    const H = 512
    const locale = localeOf(f.locale)
    const rtl = direction(locale) === 'rtl'
    const username = displayName(f, locale)
    // The quotation marks of the locale: “…”, « … », „…“, 「…」.
    const message = label(locale, 'quote.text', { text: (f.text ?? '').trim() || '…' })
    const author = label(locale, 'quote.author', { name: username })
    const family = fonts.family((f.font ?? '').trim() || 'Noto Serif', 'font', `${message}\n${author}`)
    const background = colorField(f.background, '#1e1f22', 'background')
    const color = colorField(f.color_text, 'white', 'color_text')
    const emoji = images.emoji.bind(images)
    const [avatar, messageMarked, authorMarked] = await Promise.all([
      optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
      markText(message, emoji),
      markText(author, emoji)
    ])
    return sized<I>(W, H, (newCanvas, pixels) => {
      const marked = drawnText(messageMarked, pixels)
      const authorLine = drawnText(authorMarked, pixels)
      const { canvas, ctx } = startCard(newCanvas, W, H, background)
      // Right to left (ar), the card is mirrored: avatar on the right, the lines aligned on it.
      const at = placement(W, rtl)
      drawAvatar(ctx, pixels(avatar), at.x(150), H / 2, 100, 'rgba(255,255,255,0.6)', initialOf(nameForInitial(username)), family)
      const boxX = 300
      const lineX = at.x(boxX)
      const boxW = W - boxX - 50
      let size = 48
      let lines: string[] = []
      for (; size >= 18; size -= 4) {
        ctx.font = `italic ${size}px ${family}`
        lines = wrapText(ctx, marked.text, boxW, marked.images)
        if (lines.length * size * 1.3 <= H - 160) break
      }
      const maxLines = Math.max(1, Math.floor((H - 160) / (size * 1.3)))
      if (lines.length > maxLines) lines = [...lines.slice(0, maxLines - 1), fitText(ctx, lines.slice(maxLines - 1).join(' '), family, 'italic', size, size, boxW, marked.images)]
      ctx.font = `italic ${size}px ${family}`
      ctx.fillStyle = color
      ctx.textAlign = at.start
      // The quote and its author as one block, centred: a short quote keeps its author
      // below it, not at the foot of the card.
      const authorSize = 32
      const gap = 36
      const blockTop = Math.max(40, (H - (lines.length * size * 1.3 + gap + authorSize)) / 2)
      const top = blockTop + size
      // Every line in the direction of the whole message, as a paragraph is laid out.
      ctx.direction = textDirection(message)
      lines.forEach((line, i) => drawLine(ctx, line, lineX, top + i * size * 1.3, 'fill', marked.images))
      ctx.direction = 'ltr'
      ctx.fillStyle = color
      ctx.globalAlpha = 0.75
      const authorY = Math.min(H - 60, blockTop + lines.length * size * 1.3 + gap + authorSize * 0.8)
      fillTextLine(ctx, fitText(ctx, authorLine.text, family, 'normal', authorSize, 18, boxW, authorLine.images), lineX, authorY, 'fill', authorLine.images)
      ctx.globalAlpha = 1
      return canvas
    })
  }
}
