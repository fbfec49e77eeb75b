// The welcome and goodbye banners: avatar, username, a members line, an icon and a banner.
import { AppError } from '../../errors.js'
import type { Sized } from '../drawable.js'
import { colorField } from '../canvas/color.js'
import { drawCover, fillTextLine, fitText } from '../canvas/draw.js'
import { direction, formatNumber, label, localeOf } from '../locale/locale.js'
import { initialOf } from '../text/graphemes.js'
import { drawnText, markText, nameForInitial } from '../text/markup.js'
import { COLOR_HINT, displayName, drawAvatar, LOCALE_FIELD, optionalImage, placement, startCard } from './card.js'
import { sized, type Template, type TemplateDeps, type TemplateFields } from './template.js'

/** A member's number (`member_count`): a whole number from 1, as Discord counts a server's members. */
function memberNumber (value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const n = Number(value.trim())
  if (!Number.isSafeInteger(n) || n < 1) throw new AppError('VALIDATION', `Invalid "member_count": "${value.slice(0, 20)}"; use a whole number from 1, e.g. 42 (drawn as "Member #42" in the locale)`, { details: { field: 'member_count' } })
  return n
}

/** A greeting card (welcome, goodbye): the same card with its own title line (a label of locale/) and colour. */
export function greetingTemplate (name: 'welcome' | 'goodbye', titleColor: string, summary: string): Template {
  const titleKey = `${name}.title` as const
  const title = label('en-US', titleKey)
  return {
    name,
    summary,
    defaultFormat: 'png',
    imageBoxes: { avatar: { width: 280, height: 280 }, banner: { width: 1024, height: 450 }, icon: { width: 88, height: 88 } },
    fields: {
      username: { description: 'The member\'s name; long names shrink, then end in "…"', default: 'Someone' },
      avatar: { description: 'URL of the avatar image (a letter on a disc when absent)' },
      background: { description: `Background colour ${COLOR_HINT}, under the banner`, default: '#23272a' },
      members: { description: 'Third line, free text, e.g. "Member #42"', default: '' },
      member_count: { description: 'The member\'s number, drawn as the third line in the locale ("Member #42", "Membre n° 42", "42 人目のメンバー") when `members` is not given', numeric: true },
      icon: { description: 'A name from /list/icons or an image URL, drawn in the top right corner' },
      banner: { description: 'A name from /list/banners or an image URL, the background picture' },
      color_welcome: { description: `Colour of the "${title}" line ${COLOR_HINT}`, default: titleColor },
      color_username: { description: `Colour of the username ${COLOR_HINT}`, default: 'white' },
      color_members: { description: `Colour of the members line ${COLOR_HINT}`, default: '#c8ccd0' },
      font: { description: 'A name from /list/fonts', default: 'Sans Serif' },
      text: { description: `The title line instead of "${title}" (or its word in the locale)`, default: title },
      locale: LOCALE_FIELD
    },
    async prepare<I extends Sized> ({ fonts, images }: TemplateDeps<I>, f: TemplateFields) {
      const W = 1024
      const H = 450
      const locale = localeOf(f.locale)
      const rtl = direction(locale) === 'rtl'
      const username = displayName(f, locale)
      const titleText = (f.text ?? '').trim() || label(locale, titleKey)
      const count = memberNumber(f.member_count)
      const members = (f.members ?? '').trim() || (count === undefined ? '' : label(locale, 'greeting.member', { number: formatNumber(locale, count) }))
      const family = fonts.family(f.font, 'font', [titleText, username, members].join('\n'))
      const background = colorField(f.background, '#23272a', 'background')
      const colors = {
        title: colorField(f.color_welcome, titleColor, 'color_welcome'),
        username: colorField(f.color_username, 'white', 'color_username'),
        members: colorField(f.color_members, '#c8ccd0', 'color_members')
      }
      const emoji = images.emoji.bind(images)
      const [avatar, banner, icon, titleMarked, nameMarked, membersMarked] = await Promise.all([
        optionalImage(async () => await images.url(f.avatar!, 'avatar'), f.avatar),
        optionalImage(async () => await images.assetOrUrl('banner', f.banner!, 'banner'), f.banner),
        optionalImage(async () => await images.assetOrUrl('icon', f.icon!, 'icon'), f.icon),
        markText(titleText, emoji),
        markText(username, emoji),
        markText(members, emoji)
      ])
      return sized<I>(W, H, (newCanvas, pixels) => {
        const titleLine = drawnText(titleMarked, pixels)
        const nameLine = drawnText(nameMarked, pixels)
        const membersLine = drawnText(membersMarked, pixels)
        const { canvas, ctx } = startCard(newCanvas, W, H, background, pixels(banner), { inset: 24, radius: 28, shade: 'rgba(0,0,0,0.35)' })
        // Right to left (ar), the card is mirrored: avatar on the right, the lines aligned on it.
        const at = placement(W, rtl)
        drawAvatar(ctx, pixels(avatar), at.x(230), H / 2, 140, 'rgba(255,255,255,0.9)', initialOf(nameForInitial(username)), family)
        if (icon) drawCover(ctx, pixels(icon), at.x(W - 140, 88), 48, 88, 88)
        const textX = at.x(420)
        const maxWidth = W - 420 - (icon ? 160 : 60)
        ctx.textAlign = at.start
        ctx.textBaseline = 'alphabetic'
        ctx.fillStyle = colors.title
        fillTextLine(ctx, fitText(ctx, titleLine.text, family, 'bold', 72, 32, maxWidth, titleLine.images), textX, 175, 'fill', titleLine.images)
        ctx.fillStyle = colors.username
        fillTextLine(ctx, fitText(ctx, nameLine.text, family, 'bold', 56, 26, W - 420 - 60, nameLine.images), textX, 262, 'fill', nameLine.images)
        if (members !== '') {
          ctx.fillStyle = colors.members
          fillTextLine(ctx, fitText(ctx, membersLine.text, family, 'normal', 36, 20, W - 420 - 60, membersLine.images), textX, 330, 'fill', membersLine.images)
        }
        return canvas
      })
    }
  }
}
