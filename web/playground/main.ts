// The playground page: a form for a template's fields, or a /gen/custom JSON editor,
// and the picture the server draws from it. Plain DOM, no framework: the page is one
// form and one picture, and a framework would outweigh it.
//
// Every edit schedules one request (debounced); a newer request aborts the one in
// flight, so the picture shown is always the latest edit's. The key lives in
// localStorage and goes only into the Authorization header of requests to this origin.
import { type ApiRequest, curlSnippet, fetchSnippet } from './snippets.js'

const KEY_STORAGE = 'utility-media-api:playground:key'
const DEBOUNCE_MS = 350

interface FieldInfo {
  name: string
  kind: 'text' | 'color' | 'number' | 'image-url' | 'banner' | 'icon' | 'font' | 'select' | 'json'
  description: string
  default: string
  /** The values of a select (locale, status). */
  options?: string[]
}
interface TemplateInfo { name: string, summary: string, defaultFormat: string, fields: FieldInfo[], example?: Record<string, string> }
interface Envelope { success?: boolean, code?: number, message?: string, error?: string, requestId?: string }

/** First values that make a friendlier first picture than the bare defaults; otherwise the template's own example. */
const SAMPLES: Record<string, Record<string, string>> = {
  welcome: { username: 'Ada Lovelace', members: 'Member #42' },
  goodbye: { username: 'Ada Lovelace', members: 'We are 41 now' },
  rank: { username: 'Ada Lovelace', level: '7', rank: '3', xp: '420', max_xp: '1000' },
  quote: { text: 'Simplicity is prerequisite for reliability.', username: 'Edsger W. Dijkstra' },
  leaderboard: {
    title: 'Top chatters',
    highlight: 'grace',
    players: JSON.stringify([
      { display_name: 'Ada Lovelace', username: 'ada', level: 42, xp: 125400 },
      { display_name: 'Alan Turing', username: 'alan', level: 39, xp: 98210 },
      { display_name: 'Grace Hopper', username: 'grace', level: 35, xp: 73050 },
      { display_name: 'Edsger Dijkstra', username: 'edsger', level: 30, xp: 41200 }
    ], null, 1)
  }
}

const CUSTOM_EXAMPLE = {
  output: 'png',
  base: { type: 'bitmap', width: 800, height: 300, color: 'red' },
  images: [
    { type: 'circle', x: 40, y: 40, radius: 110, color: '#ffffff' },
    { type: 'triangle', x: 600, y: 0, width: 200, height: 300, color: '0,0,0,64', cut: 'topright' }
  ],
  texts: [
    { text: 'Hello!', x: 300, y: 70, size: 72, bold: true, color: 'white', outlinewidth: 3 },
    { text: 'Edit this JSON: the picture follows.', x: 300, y: 170, size: 28, color: '255,255,255,220', width: 440 }
  ]
}

function $<T extends HTMLElement> (id: string): T {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`#${id} is missing from the page`)
  return el as T
}

const ui = {
  keyForm: $<HTMLFormElement>('key-form'),
  key: $<HTMLInputElement>('key'),
  forgetKey: $<HTMLButtonElement>('forget-key'),
  keyStatus: $<HTMLParagraphElement>('key-status'),
  templatePanel: $<HTMLDivElement>('template-panel'),
  customPanel: $<HTMLDivElement>('custom-panel'),
  template: $<HTMLSelectElement>('template'),
  templateSummary: $<HTMLParagraphElement>('template-summary'),
  fields: $<HTMLDivElement>('fields'),
  customJson: $<HTMLTextAreaElement>('custom-json'),
  customFormat: $<HTMLButtonElement>('custom-format'),
  customReset: $<HTMLButtonElement>('custom-reset'),
  output: $<HTMLSelectElement>('output'),
  animated: $<HTMLSelectElement>('animated'),
  maxBytes: $<HTMLInputElement>('max-bytes'),
  reduced: $<HTMLParagraphElement>('reduced'),
  ignored: $<HTMLParagraphElement>('ignored'),
  message: $<HTMLDivElement>('message'),
  frame: $<HTMLDivElement>('frame'),
  picture: $<HTMLImageElement>('picture'),
  placeholder: $<HTMLParagraphElement>('placeholder'),
  status: $<HTMLParagraphElement>('status'),
  curl: $<HTMLElement>('curl'),
  fetch: $<HTMLElement>('fetch'),
  copyCurl: $<HTMLButtonElement>('copy-curl'),
  copyFetch: $<HTMLButtonElement>('copy-fetch'),
  copyLink: $<HTMLButtonElement>('copy-link'),
  linkUrl: $<HTMLInputElement>('link-url'),
  linkStatus: $<HTMLParagraphElement>('link-status')
}

const state = {
  key: readKey(),
  mode: 'template' as 'template' | 'custom',
  templates: [] as TemplateInfo[],
  /** What the visitor typed, per template, kept across switches. */
  values: new Map<string, Record<string, string>>(),
  inFlight: null as AbortController | null,
  timer: undefined as ReturnType<typeof setTimeout> | undefined,
  pictureUrl: null as string | null,
  /** The request of the picture shown: what "Copy link" links to. */
  shown: null as ApiRequest | null,
  version: 0
}

// ---- the key ----

function readKey (): string | null {
  try {
    return localStorage.getItem(KEY_STORAGE)
  } catch {
    return null
  }
}

function storeKey (key: string | null): boolean {
  try {
    if (key === null) localStorage.removeItem(KEY_STORAGE)
    else localStorage.setItem(KEY_STORAGE, key)
    return true
  } catch {
    return false
  }
}

function showKeyState (note?: string): void {
  ui.keyStatus.classList.toggle('bad', note !== undefined)
  ui.forgetKey.disabled = state.key === null
  if (note !== undefined) ui.keyStatus.textContent = note
  else if (state.key === null) ui.keyStatus.textContent = 'Kept in this browser only (localStorage), and sent only to this server, in the Authorization header.'
  else ui.keyStatus.textContent = `Using the key ending in …${state.key.slice(-4)}, kept in this browser only and sent only to this server.`
  ui.key.placeholder = state.key === null ? 'Paste your key' : 'Replace the key'
}

ui.keyForm.addEventListener('submit', (event) => {
  event.preventDefault()
  const key = ui.key.value.trim()
  if (key === '') {
    showKeyState('Paste a key first: ask the server\'s operator for one.')
    ui.key.focus()
    return
  }
  state.key = key
  ui.key.value = ''
  const kept = storeKey(key)
  showKeyState(kept ? undefined : 'This browser refuses to store the key: it is used until the page closes.')
  void loadLists()
  render()
})

ui.forgetKey.addEventListener('click', () => {
  state.key = null
  state.shown = null
  ui.copyLink.disabled = true
  ui.linkUrl.hidden = true
  storeKey(null)
  showKeyState()
  render()
})

// ---- the template form ----

async function loadTemplates (): Promise<void> {
  const res = await fetch('/playground/templates.json', { cache: 'no-cache' })
  const body = await res.json() as { templates: TemplateInfo[] }
  state.templates = body.templates
  for (const t of state.templates) {
    const option = document.createElement('option')
    option.value = t.name
    option.textContent = t.name
    ui.template.append(option)
    state.values.set(t.name, { ...(SAMPLES[t.name] ?? t.example) })
  }
  buildFields()
}

function currentTemplate (): TemplateInfo | undefined {
  return state.templates.find((t) => t.name === ui.template.value)
}

const LIST_OF_KIND: Partial<Record<FieldInfo['kind'], string>> = { banner: 'list-banners', icon: 'list-icons', font: 'list-fonts' }

function buildFields (): void {
  const template = currentTemplate()
  ui.fields.replaceChildren()
  if (template === undefined) return
  ui.templateSummary.textContent = template.summary
  const values = state.values.get(template.name) ?? {}
  for (const field of template.fields) {
    const id = `field-${field.name}`
    const wrap = document.createElement('div')
    wrap.className = `field kind-${field.kind}`
    const label = document.createElement('label')
    label.htmlFor = id
    label.textContent = field.name
    const row = document.createElement('div')
    row.className = 'input-row'
    if (field.kind === 'select') {
      // A closed set: its values, and first the template's default (not sent).
      const select = document.createElement('select')
      select.id = id
      select.name = field.name
      const first = document.createElement('option')
      first.value = ''
      first.textContent = field.default === '' ? '(default)' : `${field.default} (default)`
      select.append(first, ...(field.options ?? []).filter((o) => o !== field.default).map((o) => {
        const option = document.createElement('option')
        option.value = o
        option.textContent = o
        return option
      }))
      select.value = values[field.name] ?? ''
      const hint = document.createElement('p')
      hint.className = 'hint'
      hint.id = `${id}-hint`
      hint.textContent = field.description
      select.setAttribute('aria-describedby', hint.id)
      select.addEventListener('change', () => {
        values[field.name] = select.value
        schedule()
      })
      row.append(select)
      wrap.append(label, row, hint)
      ui.fields.append(wrap)
      continue
    }
    // A JSON field (the leaderboard's players) is edited as text over several lines.
    const input = field.kind === 'json' ? document.createElement('textarea') : document.createElement('input')
    input.id = id
    input.name = field.name
    if (input instanceof HTMLInputElement) input.type = field.kind === 'image-url' ? 'url' : 'text'
    else input.rows = 8
    input.spellcheck = false
    input.autocomplete = 'off'
    input.value = values[field.name] ?? ''
    if (field.default !== '') input.placeholder = field.default
    if (field.kind === 'number') input.inputMode = 'numeric'
    const list = LIST_OF_KIND[field.kind]
    if (list !== undefined) input.setAttribute('list', list)
    const hint = document.createElement('p')
    hint.className = 'hint'
    hint.id = `${id}-hint`
    hint.textContent = field.description
    input.setAttribute('aria-describedby', hint.id)
    let picker: HTMLInputElement | undefined
    input.addEventListener('input', () => {
      values[field.name] = input.value
      if (picker !== undefined) syncPicker(picker, input.value || field.default)
      schedule()
    })
    row.append(input)
    if (field.kind === 'color') {
      picker = document.createElement('input')
      picker.type = 'color'
      picker.className = 'picker'
      picker.setAttribute('aria-label', `Pick the ${field.name} colour`)
      syncPicker(picker, input.value || field.default)
      const chosen = picker
      chosen.addEventListener('input', () => {
        input.value = chosen.value
        values[field.name] = chosen.value
        schedule()
      })
      row.append(chosen)
    }
    wrap.append(label, row, hint)
    ui.fields.append(wrap)
  }
  state.values.set(template.name, values)
}

const colorProbe = document.createElement('canvas').getContext('2d')

/** The colour the server would read, as #rrggbb for the picker: CSS names, #hex, "r,g,b". */
function toHex (value: string): string | undefined {
  const rgb = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(,\s*\d{1,3}\s*)?$/.exec(value)
  if (rgb !== null) return '#' + rgb.slice(1, 4).map((n) => Math.min(255, Number(n)).toString(16).padStart(2, '0')).join('')
  if (colorProbe === null || value.trim() === '') return undefined
  // The canvas normalises any CSS colour it understands to #rrggbb (or rgba() with alpha).
  colorProbe.fillStyle = '#000000'
  colorProbe.fillStyle = value
  const normal = String(colorProbe.fillStyle)
  return /^#[0-9a-f]{6}$/i.test(normal) ? normal : undefined
}

function syncPicker (picker: HTMLInputElement, value: string): void {
  const hex = toHex(value)
  if (hex !== undefined) picker.value = hex
}

ui.template.addEventListener('change', () => {
  buildFields()
  schedule(0)
})

/** Banner, icon and font names: the inputs suggest them, and still take URLs. */
async function loadLists (): Promise<void> {
  const key = state.key
  if (key === null) return
  await Promise.all(['banners', 'icons', 'fonts'].map(async (kind) => {
    const res = await fetch(`/list/${kind}`, { headers: { Authorization: key }, cache: 'no-cache' }).catch(() => null)
    if (res === null || !res.ok) return
    const body = await res.json() as { list?: string[] }
    let datalist = document.getElementById(`list-${kind}`)
    if (datalist === null) {
      datalist = document.createElement('datalist')
      datalist.id = `list-${kind}`
      document.body.append(datalist)
    }
    datalist.replaceChildren(...(body.list ?? []).map((name) => {
      const option = document.createElement('option')
      option.value = name
      return option
    }))
  }))
}

// ---- the custom editor ----

ui.customJson.value = JSON.stringify(CUSTOM_EXAMPLE, null, 2)
ui.customJson.addEventListener('input', () => schedule())
ui.customReset.addEventListener('click', () => {
  ui.customJson.value = JSON.stringify(CUSTOM_EXAMPLE, null, 2)
  schedule(0)
})
ui.customFormat.addEventListener('click', () => {
  try {
    ui.customJson.value = JSON.stringify(JSON.parse(ui.customJson.value), null, 2)
  } catch {
    // Not JSON yet: the server's answer, shown beside the editor, says where.
    schedule(0)
  }
})

for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="mode"]')) {
  radio.addEventListener('change', () => {
    if (!radio.checked) return
    state.mode = radio.value === 'custom' ? 'custom' : 'template'
    ui.templatePanel.hidden = state.mode !== 'template'
    ui.customPanel.hidden = state.mode !== 'custom'
    schedule(0)
  })
}
ui.output.addEventListener('change', () => schedule(0))
ui.animated.addEventListener('change', () => schedule(0))
ui.maxBytes.addEventListener('input', () => schedule())

// ---- the request ----

function currentRequest (): ApiRequest | undefined {
  if (state.mode === 'custom') {
    const text = ui.customJson.value
    let output = 'jpg'
    try {
      const parsed = JSON.parse(text) as { output?: unknown, format?: unknown }
      const chosen = parsed.output ?? parsed.format
      if (typeof chosen === 'string' && chosen.trim() !== '') output = chosen.trim().toLowerCase()
    } catch { /* the server will say what is wrong */ }
    return { origin: location.origin, path: '/gen/custom', body: text, extension: output }
  }
  const template = currentTemplate()
  if (template === undefined) return undefined
  const values = state.values.get(template.name) ?? {}
  const body: Record<string, unknown> = {}
  for (const field of template.fields) {
    const value = values[field.name]
    if (value !== undefined && value.trim() !== '') body[field.name] = field.kind === 'json' ? jsonOrText(value) : value
  }
  // The answer's form: output, animated and max_bytes are sent only when chosen, so the
  // snippets show the route's defaults as the route's defaults.
  if (ui.output.value !== '') body.output = ui.output.value
  if (ui.animated.value !== '') body.animated = ui.animated.value
  if (ui.maxBytes.value.trim() !== '') body.max_bytes = ui.maxBytes.value.trim()
  return { origin: location.origin, path: `/gen/${template.name}`, body: JSON.stringify(body), extension: ui.output.value || template.defaultFormat }
}

/** A JSON field's value as JSON when it parses (the snippets then show an array), else its text, for the server to name what is wrong. */
function jsonOrText (value: string): unknown {
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}

function updateSnippets (request: ApiRequest | undefined): void {
  ui.curl.textContent = request === undefined ? '' : curlSnippet(request)
  ui.fetch.textContent = request === undefined ? '' : fetchSnippet(request)
}

function schedule (delay = DEBOUNCE_MS): void {
  updateSnippets(currentRequest())
  clearTimeout(state.timer)
  state.timer = setTimeout(render, delay)
}

function setState (name: 'idle' | 'loading' | 'ready' | 'error'): void {
  ui.frame.dataset.state = name
  ui.frame.setAttribute('aria-busy', String(name === 'loading'))
}

function showMessage (text: string | null, detail = ''): void {
  ui.message.hidden = text === null
  ui.message.replaceChildren()
  if (text === null) return
  const main = document.createElement('p')
  main.id = 'message-text'
  main.textContent = text
  ui.message.append(main)
  if (detail !== '') {
    const small = document.createElement('p')
    small.className = 'detail'
    small.textContent = detail
    ui.message.append(small)
  }
}

function formatBytes (n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(2)} MB`
}

async function showPicture (blob: Blob): Promise<void> {
  const url = URL.createObjectURL(blob)
  const img = ui.picture
  img.src = url
  try {
    await img.decode()
  } catch { /* shown as the browser can */ }
  if (state.pictureUrl !== null) URL.revokeObjectURL(state.pictureUrl)
  state.pictureUrl = url
  img.hidden = false
  ui.placeholder.hidden = true
  const template = state.mode === 'custom' ? 'custom image' : `${ui.template.value} picture`
  img.alt = `The ${template} drawn by the server`
  state.version += 1
  ui.frame.dataset.version = String(state.version)
  // What is shown, as the status line says it (the browser tests read them).
  ui.frame.dataset.type = blob.type
  ui.frame.dataset.bytes = String(blob.size)
}

/** What the server reduced to keep the picture within max_bytes or its frame budget (X-Image-Reduced). */
function showReduced (reduced: string | null): void {
  ui.reduced.hidden = reduced === null
  ui.reduced.textContent = reduced === null ? '' : `X-Image-Reduced: ${reduced}`
}

/** The parameters the template did not read (X-Ignored-Parameters): a misspelt field shows here. */
function showIgnored (ignored: string | null): void {
  ui.ignored.hidden = ignored === null
  ui.ignored.textContent = ignored === null ? '' : `Not read by this template (X-Ignored-Parameters): ${ignored}`
}

function render (): void {
  clearTimeout(state.timer)
  const request = currentRequest()
  updateSnippets(request)
  state.inFlight?.abort()
  state.inFlight = null
  const key = state.key
  if (key === null || request === undefined) {
    setState('idle')
    ui.picture.hidden = true
    showReduced(null)
    showIgnored(null)
    ui.placeholder.hidden = false
    ui.placeholder.textContent = key === null ? 'Paste an API key to see the picture.' : 'Loading the templates…'
    ui.status.textContent = ''
    showMessage(null)
    return
  }
  const controller = new AbortController()
  state.inFlight = controller
  setState('loading')
  ui.status.textContent = 'Drawing…'
  const started = performance.now()
  void (async () => {
    try {
      const res = await fetch(request.path, {
        method: 'POST',
        headers: { Authorization: key, 'Content-Type': 'application/json' },
        body: request.body,
        signal: controller.signal,
        cache: 'no-store',
        credentials: 'omit',
        referrerPolicy: 'no-referrer'
      })
      const type = res.headers.get('content-type') ?? ''
      if (res.ok && type.startsWith('image/')) {
        const blob = await res.blob()
        if (controller.signal.aborted) return
        await showPicture(blob)
        if (controller.signal.aborted) return
        showMessage(null)
        setState('ready')
        showLinkFor(request)
        ui.status.textContent = `${res.status} · ${type} · ${formatBytes(blob.size)} · ${Math.round(performance.now() - started)} ms`
        showReduced(res.headers.get('x-image-reduced'))
        showIgnored(res.headers.get('x-ignored-parameters'))
        return
      }
      const envelope = await res.json().catch(() => ({})) as Envelope
      if (controller.signal.aborted) return
      setState('error')
      const message = envelope.message || `The server answered ${res.status} without a message`
      const detail = [`${res.status}${envelope.error ? ` ${envelope.error}` : ''}`, envelope.requestId ? `request id ${envelope.requestId}` : ''].filter(Boolean).join(' · ')
      showMessage(message, detail)
      ui.status.textContent = `${res.status}${envelope.error ? ` ${envelope.error}` : ''} · showing the last picture drawn`
      if (res.status === 401) showKeyState(`The server refused this key: ${message}`)
      const retryAfter = Number(res.headers.get('retry-after'))
      if ((res.status === 429 || res.status === 503) && retryAfter > 0 && retryAfter <= 120) {
        ui.status.textContent = `${res.status}: trying again in ${retryAfter} s`
        schedule(retryAfter * 1000)
      }
    } catch (err) {
      if (controller.signal.aborted) return
      setState('error')
      showMessage(`The request failed: ${err instanceof Error ? err.message : String(err)}`, 'Is the server running?')
      ui.status.textContent = ''
    } finally {
      if (state.inFlight === controller) state.inFlight = null
    }
  })()
}

// ---- copying ----

async function copy (text: string, button: HTMLButtonElement, label: string): Promise<void> {
  let done = false
  try {
    await navigator.clipboard.writeText(text)
    done = true
  } catch {
    // Clipboard API refused (a plain-http page other than localhost): copy through a selection.
    const area = document.createElement('textarea')
    area.value = text
    area.setAttribute('readonly', '')
    area.className = 'visually-hidden'
    document.body.append(area)
    area.select()
    done = document.execCommand('copy')
    area.remove()
  }
  button.textContent = done ? 'Copied' : 'Select and copy by hand'
  setTimeout(() => { button.textContent = label }, 1500)
}

ui.copyCurl.addEventListener('click', () => { void copy(ui.curl.textContent ?? '', ui.copyCurl, 'Copy as curl') })
ui.copyFetch.addEventListener('click', () => { void copy(ui.fetch.textContent ?? '', ui.copyFetch, 'Copy as fetch') })

// ---- a signed link to the picture shown ----

const LINK_HINT = ui.linkStatus.textContent ?? ''

/** A new picture: the link shown so far names another request. */
function showLinkFor (request: ApiRequest): void {
  state.shown = request
  ui.copyLink.disabled = false
  ui.linkUrl.hidden = true
  ui.linkUrl.value = ''
  ui.linkStatus.classList.remove('bad')
  ui.linkStatus.textContent = LINK_HINT
}

/** POST /links for the picture shown (minted with the key, docs/links.md), then the URL to the clipboard. */
async function copyLink (): Promise<void> {
  const request = state.shown
  const key = state.key
  if (request === null || key === null) return
  ui.copyLink.disabled = true
  ui.linkStatus.classList.remove('bad')
  ui.linkStatus.textContent = 'Making the link…'
  try {
    const res = await fetch('/links', {
      method: 'POST',
      headers: { Authorization: key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: request.path, body: JSON.parse(request.body) as unknown }),
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer'
    })
    const answer = await res.json().catch(() => ({})) as Envelope & { url?: string }
    if (state.shown !== request) return // a newer picture came meanwhile: its own link is to be made
    if (!res.ok || typeof answer.url !== 'string') {
      const message = answer.message || `The server answered ${res.status} without a message`
      throw new Error(`${message} (${res.status}${answer.error ? ` ${answer.error}` : ''})`)
    }
    ui.linkUrl.value = answer.url
    ui.linkUrl.hidden = false
    let copied = false
    try {
      await navigator.clipboard.writeText(answer.url)
      copied = true
    } catch { /* no clipboard here (plain http other than localhost): the field is selected instead */ }
    if (!copied) {
      ui.linkUrl.focus()
      ui.linkUrl.select()
    }
    ui.linkStatus.textContent = copied
      ? 'Link copied: anyone with it gets this picture with no key, counted to your key.'
      : 'This browser does not let the page copy: the link is selected, copy it by hand.'
  } catch (err) {
    if (state.shown !== request) return
    ui.linkStatus.classList.add('bad')
    ui.linkStatus.textContent = `Could not make a link: ${err instanceof Error ? err.message : String(err)}`
  } finally {
    ui.copyLink.disabled = state.shown === null
  }
}

ui.copyLink.addEventListener('click', () => { void copyLink() })

// ---- start ----

showKeyState()
loadTemplates().then(() => {
  if (state.key !== null) void loadLists()
  render()
}, (err: unknown) => {
  showMessage(`Could not load the templates: ${err instanceof Error ? err.message : String(err)}`)
})
