// The operator console (/admin): keys, usage, gif reports and the audit log over the
// management API (/admin/v1/). Plain DOM, no framework: a few forms and tables do not
// need one, and the page must run under a CSP that allows only its own files.
//
// The operator token lives in sessionStorage (this tab only, gone when it closes) and is
// sent only to this origin, in the Authorization header (web/console/api.ts). Secrets of
// new or rolled keys are shown once, in a read-only field, and kept nowhere.
import { type AdminKey, type Api, ApiError, type AuditEntry, createApi, dailyTotals, type GifReport, lastDays, limitsPatch, utcDay } from './api.js'
import { usageChart } from './chart.js'

const TOKEN_STORAGE = 'utility-media-api:console:token'
const SCREENS = ['keys', 'usage', 'gifs', 'audit'] as const
type Screen = typeof SCREENS[number]
const CHART_DAYS = 30

function $<T extends HTMLElement> (id: string): T {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`#${id} is missing from the page`)
  return found as T
}
const input = (id: string) => $<HTMLInputElement>(id)

const ui = {
  who: $('who'),
  whoText: $('who-text'),
  signOut: $<HTMLButtonElement>('sign-out'),
  nav: $('nav'),
  message: $('message'),
  messageText: $('message-text'),
  messageDetail: $('message-detail'),
  signin: $('screen-signin'),
  signinForm: $<HTMLFormElement>('signin-form'),
  token: input('token'),
  keysBody: $('keys-body'),
  keysEmpty: $('keys-empty'),
  keysFirst: $<HTMLButtonElement>('keys-first'),
  keysNext: $<HTMLButtonElement>('keys-next'),
  createPanel: $<HTMLDetailsElement>('create-panel'),
  secretBox: $('secret-box'),
  secretFor: $('secret-for'),
  secretValue: input('secret-value'),
  secretNote: $('secret-note'),
  detail: $('key-detail'),
  detailTitle: $('detail-title'),
  detailFacts: $('detail-facts'),
  statusToggle: $<HTMLButtonElement>('status-toggle'),
  revokeConfirm: $('revoke-confirm'),
  chartBox: $('chart-box'),
  chart: $('chart'),
  chartCaption: $('chart-caption'),
  chartTotals: $('chart-totals'),
  chartTable: $<HTMLTableElement>('chart-table'),
  exportNote: $('export-note'),
  reports: $('reports'),
  reportsEmpty: $('reports-empty'),
  reportsNext: $<HTMLButtonElement>('reports-next'),
  auditBody: $('audit-body'),
  auditEmpty: $('audit-empty'),
  auditNext: $<HTMLButtonElement>('audit-next')
}

const state = {
  api: null as Api | null,
  screen: null as Screen | null,
  /** The cursor of the keys page shown (null: the first) and of the next. */
  keysCursor: null as string | null,
  keysNext: null as string | null,
  key: null as AdminKey | null,
  reportsNext: null as string | null,
  auditNext: null as string | null,
  /** blob: URLs of the gifs shown, released when the list is redrawn. */
  gifUrls: [] as string[]
}

// ---- messages ----

function showMessage (err: unknown): void {
  if (err === null) {
    ui.message.hidden = true
    return
  }
  ui.message.hidden = false
  if (err instanceof ApiError) {
    ui.messageText.textContent = err.message
    ui.messageDetail.textContent = err.detail + (err.retryAfter === undefined ? '' : ` · retry after ${err.retryAfter} s`)
  } else {
    ui.messageText.textContent = err instanceof Error ? err.message : String(err)
    ui.messageDetail.textContent = ''
  }
}

/**
 * Runs an action of the page: its button disabled meanwhile, its failure shown in the
 * message area (the API's own message), a refused token back to the sign-in.
 */
async function act (control: HTMLButtonElement | HTMLFormElement | null, action: (api: Api) => Promise<void>): Promise<void> {
  const api = state.api
  if (api === null) return
  const buttons = control === null ? [] : control instanceof HTMLFormElement ? [...control.querySelectorAll('button')] : [control]
  for (const b of buttons) b.disabled = true
  try {
    await action(api)
    showMessage(null)
  } catch (err) {
    showMessage(err)
    if (err instanceof ApiError && err.status === 401) signOut(false)
  } finally {
    for (const b of buttons) b.disabled = false
  }
}

function onSubmit (id: string, action: (api: Api, form: HTMLFormElement) => Promise<void>): void {
  const form = $<HTMLFormElement>(id)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void act(form, async (api) => { await action(api, form) })
  })
}

function onClick (id: string, action: (api: Api) => Promise<void>): void {
  const button = $<HTMLButtonElement>(id)
  button.addEventListener('click', () => { void act(button, action) })
}

// ---- formatting ----

function when (iso: string | null): string {
  if (iso === null) return 'never'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString()
}

function credits (key: AdminKey): string {
  if (key.credits === null) return 'unmetered'
  const refill = key.credits.refill === null ? '' : ` (refill ${key.credits.refill.amount}/${key.credits.refill.period})`
  return `${key.credits.remaining}${refill}`
}

function limits (key: AdminKey): string {
  const rate = key.rate === null ? 'default rate' : `${key.rate.max} units / ${key.rate.window_seconds} s`
  const quota = key.quota === null ? 'no quota' : `quota ${key.quota.max}/${key.quota.period}`
  return `${rate}, ${quota}`
}

/** A datetime-local field's value (the operator's local time) as ISO 8601, or null when empty. */
function isoFromLocal (value: string): string | null {
  if (value === '') return null
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new Error(`"${value}" is not a date and time`)
  return date.toISOString()
}

function localFromIso (iso: string | null): string {
  if (iso === null) return ''
  const date = new Date(iso)
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

function metaFrom (text: string): Record<string, unknown> | null {
  if (text.trim() === '') return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    throw new Error(`The metadata is not JSON: ${err instanceof Error ? err.message : String(err)}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The metadata must be a JSON object, like {"plan": "pro"}')
  return parsed as Record<string, unknown>
}

function optionalInt (value: string, what: string): number | undefined {
  if (value.trim() === '') return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} must be a whole number`)
  return n
}

function cell (row: HTMLTableRowElement, text: string, title?: string): HTMLTableCellElement {
  const td = row.insertCell()
  td.textContent = text
  if (title !== undefined) td.title = title
  return td
}

function button (text: string, className: string, onClickAction: () => void, label?: string): HTMLButtonElement {
  const b = document.createElement('button')
  b.type = 'button'
  b.className = className
  b.textContent = text
  if (label !== undefined) b.setAttribute('aria-label', label)
  b.addEventListener('click', onClickAction)
  return b
}

// ---- signing in ----

function readToken (): string | null {
  try {
    return sessionStorage.getItem(TOKEN_STORAGE)
  } catch {
    return null
  }
}

function storeToken (token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_STORAGE)
    else sessionStorage.setItem(TOKEN_STORAGE, token)
  } catch { /* storage refused: the token lives until the page closes */ }
}

async function signIn (token: string): Promise<void> {
  const api = createApi(token, (url, init) => fetch(url, init))
  const { token: who } = await api.whoami()
  state.api = api
  storeToken(token)
  ui.whoText.textContent = `Signed in as ${who.name} (scopes: ${who.scopes.join(', ')})`
  ui.who.hidden = false
  ui.nav.hidden = false
  ui.signin.hidden = true
  showMessage(null)
  const wanted = location.hash.slice(1)
  showScreen(SCREENS.includes(wanted as Screen) ? wanted as Screen : 'keys')
}

function signOut (clearMessage = true): void {
  state.api = null
  state.screen = null
  state.key = null
  storeToken(null)
  for (const url of state.gifUrls) URL.revokeObjectURL(url)
  state.gifUrls = []
  ui.who.hidden = true
  ui.nav.hidden = true
  for (const screen of SCREENS) $(`screen-${screen}`).hidden = true
  ui.keysBody.replaceChildren()
  ui.detail.hidden = true
  ui.secretBox.hidden = true
  ui.secretValue.value = ''
  ui.reports.replaceChildren()
  ui.auditBody.replaceChildren()
  ui.signin.hidden = false
  if (clearMessage) showMessage(null)
  ui.token.focus()
}

ui.signinForm.addEventListener('submit', (event) => {
  event.preventDefault()
  const token = ui.token.value.trim()
  if (token === '') return
  const submit = ui.signinForm.querySelector('button')!
  submit.disabled = true
  signIn(token).then(() => { ui.token.value = '' }, (err: unknown) => {
    showMessage(err)
    ui.token.focus()
  }).finally(() => { submit.disabled = false })
})

ui.signOut.addEventListener('click', () => { signOut() })

// ---- screens ----

function showScreen (screen: Screen): void {
  if (state.api === null) return
  const first = state.screen !== screen
  state.screen = screen
  for (const name of SCREENS) $(`screen-${name}`).hidden = name !== screen
  for (const b of ui.nav.querySelectorAll<HTMLButtonElement>('button[data-screen]')) {
    if (b.dataset.screen === screen) b.setAttribute('aria-current', 'page')
    else b.removeAttribute('aria-current')
  }
  if (location.hash !== `#${screen}`) history.replaceState(null, '', `#${screen}`)
  if (!first) return
  if (screen === 'keys') void act(null, async (api) => { await loadKeys(api, null) })
  if (screen === 'gifs') void act(null, async (api) => { await loadReports(api, false) })
  if (screen === 'audit') void act(null, async (api) => { await loadAudit(api, false) })
  if (screen === 'usage') prepareExport()
}

for (const b of ui.nav.querySelectorAll<HTMLButtonElement>('button[data-screen]')) {
  b.addEventListener('click', () => { showScreen(b.dataset.screen as Screen) })
}

window.addEventListener('hashchange', () => {
  const wanted = location.hash.slice(1)
  if (SCREENS.includes(wanted as Screen)) showScreen(wanted as Screen)
})

// ---- keys ----

async function loadKeys (api: Api, cursor: string | null): Promise<void> {
  const { keys, next_cursor: next } = await api.listKeys({
    owner: input('search-owner').value.trim(),
    name: input('search-name').value.trim(),
    status: $<HTMLSelectElement>('search-status').value,
    limit: 50,
    cursor
  })
  state.keysCursor = cursor
  state.keysNext = next
  ui.keysBody.replaceChildren()
  for (const key of keys) {
    const row = (ui.keysBody as HTMLTableSectionElement).insertRow()
    row.dataset.keyId = key.id
    cell(row, key.name)
    cell(row, key.owner ?? '–')
    const status = cell(row, key.status)
    status.className = `status status-${key.status}`
    cell(row, credits(key))
    cell(row, when(key.expires_at), key.expires_at ?? undefined)
    cell(row, when(key.created_at), key.created_at)
    row.insertCell().append(button('Manage', 'secondary small', () => { void act(null, async (a) => { openKey(await a.getKey(key.id)) }) }, `Manage ${key.name}`))
  }
  ui.keysEmpty.hidden = keys.length > 0
  ui.keysFirst.disabled = cursor === null
  ui.keysNext.disabled = next === null
}

onSubmit('search-form', async (api) => { await loadKeys(api, null) })
onClick('keys-first', async (api) => { await loadKeys(api, null) })
onClick('keys-next', async (api) => { await loadKeys(api, state.keysNext) })

function showSecret (name: string, secret: string | null, note = ''): void {
  ui.secretFor.textContent = name
  ui.secretValue.value = secret ?? ''
  ui.secretNote.textContent = secret === null ? (note || 'The server no longer keeps this secret.') : note
  ui.secretBox.hidden = false
  ui.secretBox.focus()
}

$('secret-copy').addEventListener('click', () => {
  const text = ui.secretValue.value
  navigator.clipboard.writeText(text).then(() => {
    ui.secretNote.textContent = 'Copied.'
  }, () => {
    // No clipboard for this page (plain http other than localhost): select it for a manual copy.
    ui.secretValue.focus()
    ui.secretValue.select()
    ui.secretNote.textContent = 'This browser does not let the page copy: the secret is selected, copy it by hand.'
  })
})

$('secret-close').addEventListener('click', () => {
  ui.secretValue.value = ''
  ui.secretBox.hidden = true
})

/**
 * One idempotency key per key to create: a second click or a retry after a lost answer
 * creates nothing new; a successful creation (or a change of the form) starts a new one.
 */
let createAttempt = crypto.randomUUID()
$('create-form').addEventListener('input', () => { createAttempt = crypto.randomUUID() })

onSubmit('create-form', async (api, form) => {
  const body: Record<string, unknown> = {}
  const name = input('create-name').value.trim()
  const owner = input('create-owner').value.trim()
  if (name !== '') body.name = name
  if (owner !== '') body.owner = owner
  const meta = metaFrom($<HTMLTextAreaElement>('create-meta').value)
  if (meta !== null) body.meta = meta
  const { rate, quota } = limitsPatch(input('create-rate-max').value, input('create-rate-window').value, input('create-quota-max').value, $<HTMLSelectElement>('create-quota-period').value)
  if (rate !== null) body.rate = rate
  if (quota !== null) body.quota = quota
  const creditsValue = optionalInt(input('create-credits').value, 'The credits')
  if (creditsValue !== undefined) body.credits = creditsValue
  const refill = optionalInt(input('create-refill').value, 'The refill amount')
  if (refill !== undefined) body.refill = { amount: refill, period: $<HTMLSelectElement>('create-refill-period').value }
  const expires = isoFromLocal(input('create-expires').value)
  if (expires !== null) body.expires_at = expires
  const created = await api.createKey(body, createAttempt)
  createAttempt = crypto.randomUUID()
  form.reset()
  ui.createPanel.open = false
  showSecret(created.name, created.key, created.message)
  await loadKeys(api, null)
})

function openKey (key: AdminKey): void {
  state.key = key
  ui.detailTitle.textContent = `Key ${key.name}`
  const facts: Array<[string, string]> = [
    ['Id', key.id],
    ['Prefix', key.prefix],
    ['Status', key.status],
    ['Owner', key.owner ?? '–'],
    ['Limits', limits(key)],
    ['Credits', credits(key)],
    ['Expires', when(key.expires_at)],
    ['Created', when(key.created_at)],
    ['Updated', when(key.updated_at)],
    ['Source', key.source]
  ]
  ui.detailFacts.replaceChildren(...facts.flatMap(([term, value]) => {
    const dt = document.createElement('dt')
    dt.textContent = term
    const dd = document.createElement('dd')
    dd.textContent = value
    return [dt, dd]
  }))
  input('edit-name').value = key.name
  input('edit-owner').value = key.owner ?? ''
  $<HTMLTextAreaElement>('edit-meta').value = key.meta === null ? '' : JSON.stringify(key.meta, null, 2)
  input('edit-rate-max').value = key.rate === null ? '' : String(key.rate.max)
  input('edit-rate-window').value = key.rate === null ? '' : String(key.rate.window_seconds)
  input('edit-quota-max').value = key.quota === null ? '' : String(key.quota.max)
  $<HTMLSelectElement>('edit-quota-period').value = key.quota?.period ?? 'day'
  input('edit-credits').value = key.credits === null ? '' : String(key.credits.remaining)
  input('edit-add-credits').value = ''
  input('edit-refill').value = key.credits?.refill == null ? '' : String(key.credits.refill.amount)
  $<HTMLSelectElement>('edit-refill-period').value = key.credits?.refill?.period ?? 'month'
  input('edit-expires').value = localFromIso(key.expires_at)
  const gone = key.status === 'revoked'
  ui.statusToggle.textContent = key.status === 'disabled' ? 'Enable' : 'Disable'
  for (const control of ui.detail.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('form button, form input, form textarea, form select, #status-toggle, #credits-none, #revoke')) {
    control.disabled = gone
  }
  ui.revokeConfirm.hidden = true
  const wasHidden = ui.detail.hidden
  ui.detail.hidden = false
  if (wasHidden) ui.detail.focus()
  // The list shows the key's new state too.
  const row = ui.keysBody.querySelector<HTMLTableRowElement>(`tr[data-key-id="${CSS.escape(key.id)}"]`)
  if (row !== null) {
    row.cells[0]!.textContent = key.name
    row.cells[1]!.textContent = key.owner ?? '–'
    row.cells[2]!.textContent = key.status
    row.cells[2]!.className = `status status-${key.status}`
    row.cells[3]!.textContent = credits(key)
    row.cells[4]!.textContent = when(key.expires_at)
  }
}

function selected (): AdminKey {
  if (state.key === null) throw new Error('Choose a key first')
  return state.key
}

async function patch (api: Api, body: Record<string, unknown>): Promise<void> {
  openKey(await api.updateKey(selected().id, body))
}

$('detail-close').addEventListener('click', () => {
  ui.detail.hidden = true
  state.key = null
})

onSubmit('identity-form', async (api) => {
  await patch(api, { name: input('edit-name').value.trim(), owner: input('edit-owner').value.trim() || null, meta: metaFrom($<HTMLTextAreaElement>('edit-meta').value) })
})
onSubmit('limits-form', async (api) => {
  await patch(api, limitsPatch(input('edit-rate-max').value, input('edit-rate-window').value, input('edit-quota-max').value, $<HTMLSelectElement>('edit-quota-period').value))
})
onSubmit('credits-set-form', async (api) => {
  await patch(api, { credits: optionalInt(input('edit-credits').value, 'The credits') })
})
onSubmit('credits-add-form', async (api) => {
  await patch(api, { add_credits: optionalInt(input('edit-add-credits').value, 'The credits to add') })
})
onSubmit('refill-form', async (api) => {
  const amount = optionalInt(input('edit-refill').value, 'The refill amount')
  await patch(api, { refill: amount === undefined ? null : { amount, period: $<HTMLSelectElement>('edit-refill-period').value } })
})
onClick('credits-none', async (api) => { await patch(api, { credits: null }) })
onSubmit('expiry-form', async (api) => {
  const expires = isoFromLocal(input('edit-expires').value)
  if (expires === null) throw new Error('Choose a date and time, or press "Never expires"')
  await patch(api, { expires_at: expires })
})
onClick('expiry-never', async (api) => { await patch(api, { expires_at: null }) })
onClick('status-toggle', async (api) => { await patch(api, { status: selected().status === 'disabled' ? 'active' : 'disabled' }) })
onSubmit('roll-form', async (api) => {
  const key = selected()
  const grace = optionalInt(input('roll-grace').value, 'The grace period') ?? 0
  const rolled = await api.rollKey(key.id, grace)
  openKey(rolled)
  const until = rolled.previous_valid_until ?? null
  showSecret(rolled.name, rolled.key, until === null ? 'The old secret is refused from now on.' : `The old secret keeps working until ${when(until)}.`)
})

$('revoke').addEventListener('click', () => {
  ui.revokeConfirm.hidden = false
  $('revoke-no').focus()
})
$('revoke-no').addEventListener('click', () => {
  ui.revokeConfirm.hidden = true
  $('revoke').focus()
})
onClick('revoke-yes', async (api) => {
  openKey(await api.revokeKey(selected().id))
})
$('detail-usage').addEventListener('click', () => {
  const key = state.key
  if (key === null) return
  input('usage-key').value = key.id
  input('export-key').value = key.id
  showScreen('usage')
  void act(null, async (api) => { await loadUsage(api, key.id) })
})

// ---- usage ----

async function loadUsage (api: Api, id: string): Promise<void> {
  const days = lastDays(Date.now(), CHART_DAYS)
  const { rows } = await api.keyUsage(id, days[0]!, days.at(-1)!)
  const totals = dailyTotals(rows, days)
  const name = rows[0]?.key_name ?? (state.key?.id === id ? state.key.name : id)
  const units = totals.reduce((sum, d) => sum + d.units, 0)
  const requests = totals.reduce((sum, d) => sum + d.requests, 0)
  const label = `Units per day of key ${name}, ${days[0]} to ${days.at(-1)} (UTC)`
  ui.chartCaption.textContent = label
  ui.chart.replaceChildren(usageChart(totals, label))
  ui.chartTotals.textContent = `${units} units over ${requests} request${requests === 1 ? '' : 's'} in ${CHART_DAYS} days.`
  ui.chartBox.dataset.units = String(units)
  ui.chartBox.dataset.requests = String(requests)
  const body = ui.chartTable.tBodies[0]!
  body.replaceChildren()
  for (const d of totals) {
    const row = body.insertRow()
    cell(row, d.day)
    cell(row, String(d.requests))
    cell(row, String(d.units))
  }
  ui.chartBox.hidden = false
}

onSubmit('usage-form', async (api) => { await loadUsage(api, input('usage-key').value.trim()) })

/** The export's period defaults to the current UTC month so far. */
function prepareExport (): void {
  const today = utcDay(Date.now())
  if (input('export-from').value === '') input('export-from').value = `${today.slice(0, 8)}01`
  if (input('export-to').value === '') input('export-to').value = today
}

onSubmit('export-form', async (api) => {
  const from = input('export-from').value
  const to = input('export-to').value
  const key = input('export-key').value.trim()
  const group = $<HTMLSelectElement>('export-group').value === 'month' ? 'month' : 'day'
  ui.exportNote.textContent = 'Preparing the export…'
  try {
    const blob = await api.exportUsage({ from, to, key: key === '' ? undefined : key, group })
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = `usage-${from}-to-${to}${key === '' ? '' : `-${key}`}.csv`
    document.body.append(link)
    link.click()
    link.remove()
    setTimeout(() => { URL.revokeObjectURL(url) }, 60_000)
    ui.exportNote.textContent = `Downloaded ${link.download} (${blob.size} bytes).`
  } catch (err) {
    ui.exportNote.textContent = ''
    throw err
  }
})

// ---- gif reports ----

async function loadReports (api: Api, more: boolean): Promise<void> {
  const status = $<HTMLSelectElement>('reports-status').value
  const { reports, next_cursor: next } = await api.reports(status, more ? state.reportsNext : null)
  if (!more) {
    for (const url of state.gifUrls) URL.revokeObjectURL(url)
    state.gifUrls = []
    ui.reports.replaceChildren()
  }
  for (const report of reports) ui.reports.append(reportItem(api, report))
  state.reportsNext = next
  ui.reportsNext.disabled = next === null
  ui.reportsEmpty.hidden = ui.reports.childElementCount > 0
}

function reportItem (api: Api, report: GifReport): HTMLLIElement {
  const item = document.createElement('li')
  item.className = 'report card'
  item.dataset.reportId = String(report.id)
  const gif = report.gif
  const figure = document.createElement('div')
  figure.className = 'gif'
  if (gif === null) {
    const gone = document.createElement('p')
    gone.className = 'hint'
    gone.textContent = 'The gif was removed.'
    figure.append(gone)
  } else {
    const img = document.createElement('img')
    img.alt = `The reported gif ${gif.id} (${gif.category})`
    if (gif.width !== null && gif.height !== null) {
      img.width = gif.width
      img.height = gif.height
    }
    figure.append(img)
    // Fetched with the token: an <img src> could not send it.
    api.gifFile(gif.file_url).then((blob) => {
      const url = URL.createObjectURL(blob)
      state.gifUrls.push(url)
      img.src = url
    }, (err: unknown) => {
      img.alt = `The gif could not be loaded: ${err instanceof Error ? err.message : String(err)}`
    })
  }
  const facts = document.createElement('div')
  facts.className = 'report-facts'
  const title = document.createElement('h3')
  title.textContent = gif === null ? 'A removed gif' : `Gif ${gif.id} · ${gif.category}`
  const lines = [
    `Reason: ${report.reason}`,
    `Reported ${when(report.created_at)} by ${report.key_name ?? 'a key that no longer exists'}`,
    gif === null ? '' : gif.hidden ? 'Hidden: no longer answered' : 'Shown: still answered',
    report.dismissed_at === null ? '' : `Dismissed ${when(report.dismissed_at)}`
  ].filter((line) => line !== '')
  facts.append(title, ...lines.map((line) => {
    const p = document.createElement('p')
    p.textContent = line
    return p
  }))
  const actions = document.createElement('div')
  actions.className = 'row'
  const refresh = async (): Promise<void> => { await loadReports(api, false) }
  const label = gif === null ? `report ${report.id}` : `gif ${gif.id}`
  if (gif !== null) {
    const hide = gif.hidden
      ? button('Unhide', 'secondary', () => { void act(hide, async (a) => { await a.unhideGif(gif.id); await refresh() }) }, `Unhide ${label}`)
      : button('Hide', 'secondary', () => { void act(hide, async (a) => { await a.hideGif(gif.id); await refresh() }) }, `Hide ${label}`)
    actions.append(hide)
  }
  if (report.dismissed_at === null) {
    const dismiss = button('Dismiss', 'secondary', () => { void act(dismiss, async (a) => { await a.dismissReport(report.id); await refresh() }) }, `Dismiss the report on ${label}`)
    actions.append(dismiss)
  }
  facts.append(actions)
  if (gif !== null) {
    const confirm = document.createElement('div')
    confirm.className = 'confirm'
    confirm.hidden = true
    confirm.setAttribute('role', 'alertdialog')
    const question = document.createElement('p')
    question.id = `remove-question-${report.id}`
    question.textContent = `Remove ${label} from the catalog? Its file is deleted; this cannot be undone.`
    confirm.setAttribute('aria-labelledby', question.id)
    const remove = button('Remove…', 'danger-button', () => { confirm.hidden = false; no.focus() }, `Remove ${label}…`)
    const no = button('Cancel', 'secondary', () => { confirm.hidden = true; remove.focus() })
    const yes = button('Yes, remove', 'danger-button', () => { void act(yes, async (a) => { await a.removeGif(gif.id); await refresh() }) }, `Yes, remove ${label}`)
    const confirmRow = document.createElement('div')
    confirmRow.className = 'row'
    confirmRow.append(yes, no)
    confirm.append(question, confirmRow)
    actions.append(remove)
    facts.append(confirm)
  }
  item.append(figure, facts)
  return item
}

onSubmit('reports-form', async (api) => { await loadReports(api, false) })
onClick('reports-next', async (api) => { await loadReports(api, true) })

// ---- audit log ----

async function loadAudit (api: Api, more: boolean): Promise<void> {
  const { entries, next_cursor: next } = await api.audit(input('audit-action').value.trim(), more ? state.auditNext : null)
  if (!more) ui.auditBody.replaceChildren()
  for (const entry of entries) auditRow(entry)
  state.auditNext = next
  ui.auditNext.disabled = next === null
  ui.auditEmpty.hidden = ui.auditBody.childElementCount > 0
}

function auditRow (entry: AuditEntry): void {
  const row = (ui.auditBody as HTMLTableSectionElement).insertRow()
  cell(row, when(entry.at), entry.at)
  cell(row, entry.actor)
  cell(row, entry.action)
  cell(row, entry.target ?? '–')
  cell(row, entry.address ?? '–')
  const details = entry.details === null || entry.details === undefined ? '' : JSON.stringify(entry.details)
  cell(row, details).className = 'mono'
}

onSubmit('audit-form', async (api) => { await loadAudit(api, false) })
onClick('audit-next', async (api) => { await loadAudit(api, true) })

// ---- start ----

const kept = readToken()
if (kept === null) {
  ui.token.focus()
} else {
  signIn(kept).catch((err: unknown) => {
    storeToken(null)
    showMessage(err)
    ui.token.focus()
  })
}
