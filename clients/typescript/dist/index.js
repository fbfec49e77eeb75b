export { customLinkTarget, linkTarget, signLink } from './link.js';
/** A failure answered by the API: the status and the JSON envelope (`error` is the stable code). */
export class UtilityMediaApiError extends Error {
    /** The HTTP status. */
    status;
    /** The stable error code from the API's catalogue, e.g. "AUTH_UNKNOWN_KEY", "INVALID_COLOR". */
    code;
    /** The request id: quote it when reporting a failure. */
    requestId;
    /** The whole envelope, with any extra fields the error carries (valid values, a field name). */
    envelope;
    /** Seconds to wait before retrying (429, 503), when the server said. */
    retryAfter;
    /** The answer's headers, rate limit and attempts (undefined when built by hand). */
    meta;
    constructor(status, envelope, retryAfter, meta) {
        super(envelope.message);
        this.name = 'UtilityMediaApiError';
        this.status = status;
        this.code = envelope.error;
        this.requestId = envelope.requestId;
        this.envelope = envelope;
        this.retryAfter = retryAfter;
        this.meta = meta;
    }
}
/** Retry-After in seconds: delay-seconds, or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterOf(headers) {
    const value = headers.get('retry-after')?.trim();
    if (value === undefined || value === '')
        return undefined;
    if (/^\d+$/.test(value))
        return Number(value);
    const at = Date.parse(value);
    return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
function limitOf(headers, prefix) {
    const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) => headers.get(`${prefix}-${name}`));
    if (limit == null || remaining == null || reset == null)
        return undefined;
    return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}
function metaOf(res, attempts) {
    const reduced = res.headers.get('x-image-reduced');
    return {
        status: res.status,
        headers: res.headers,
        requestId: res.headers.get('x-request-id') ?? undefined,
        rateLimit: limitOf(res.headers, 'x-ratelimit'),
        quota: limitOf(res.headers, 'x-quota'),
        reduced: reduced === null || reduced.trim() === '' ? [] : reduced.split(',').map((s) => s.trim()),
        attempts
    };
}
function withMeta(value, meta) {
    // Every answer of the API is an object; anything else (a proxy's JSON) is handed back as it came.
    if (typeof value !== 'object' || value === null || !Object.isExtensible(value))
        return value;
    return Object.defineProperty(value, 'meta', { value: meta, enumerable: false, configurable: true });
}
async function errorOf(res, attempts = 1) {
    const text = await res.text();
    const retryAfter = retryAfterOf(res.headers);
    const meta = metaOf(res, attempts);
    try {
        const parsed = JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null && typeof parsed.error === 'string')
            return new UtilityMediaApiError(res.status, parsed, retryAfter, meta);
    }
    catch { }
    // Not the API's envelope (a proxy's page, say): the same shape, so callers handle one type.
    return new UtilityMediaApiError(res.status, {
        success: false,
        code: res.status,
        message: text.slice(0, 500) || res.statusText || `HTTP ${res.status}`,
        error: 'HTTP_ERROR',
        requestId: res.headers.get('x-request-id') ?? ''
    }, retryAfter, meta);
}
const RETRIED = new Set([429, 503]);
const DEFAULT_RETRIES = 2;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;
function isUrlInput(image) {
    return typeof image === 'object' && image !== null && !(image instanceof Uint8Array) && !(image instanceof ArrayBuffer) &&
        !(typeof Blob !== 'undefined' && image instanceof Blob) && 'url' in image;
}
export class UtilityMediaApi {
    #base;
    #fetch;
    #headers;
    #retries;
    #maxRetryAfter;
    constructor(options) {
        this.#base = options.baseUrl.replace(/\/+$/, '');
        this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
        this.#headers = { ...options.headers, authorization: options.key };
        const retry = options.retry === true ? {} : options.retry === false || options.retry === undefined ? { retries: 0 } : options.retry;
        this.#retries = Math.max(0, Math.floor(retry.retries ?? DEFAULT_RETRIES));
        this.#maxRetryAfter = Math.max(0, retry.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS);
    }
    /** Sends the call, again after Retry-After when retrying is on; the answer and its meta, or the error. */
    async #send(call) {
        for (let attempt = 1;; attempt++) {
            const res = await this.#sendOnce(call);
            if (res.ok)
                return { res, meta: metaOf(res, attempt) };
            const wait = retryAfterOf(res.headers);
            if (attempt > this.#retries || !RETRIED.has(res.status) || wait === undefined || wait > this.#maxRetryAfter)
                throw await errorOf(res, attempt);
            // The answer's body is dropped (its connection is free again), then the wait.
            await res.body?.cancel().catch(() => { });
            await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        }
    }
    async #sendOnce(call) {
        const url = new URL(this.#base + call.path);
        for (const [name, value] of Object.entries(call.query ?? {})) {
            if (value !== undefined)
                url.searchParams.set(name, String(value));
        }
        const headers = { ...this.#headers };
        let body = null;
        if (call.json !== undefined) {
            headers['content-type'] = 'application/json';
            body = JSON.stringify(call.json);
        }
        else if (call.bytes !== undefined) {
            headers['content-type'] = 'application/octet-stream';
            body = call.bytes;
        }
        return await this.#fetch(url, { method: call.method, headers, body });
    }
    async #json(call) {
        const { res, meta } = await this.#send(call);
        return withMeta(await res.json(), meta);
    }
    async #bytes(call) {
        const { res, meta } = await this.#send(call);
        return withMeta(new Uint8Array(await res.arrayBuffer()), meta);
    }
    /** A conversion: the bytes uploaded, or a GET of `url` for the server to fetch. */
    #convert(path, image, options) {
        if (isUrlInput(image))
            return this.#bytes({ method: 'GET', path, query: { ...options, url: String(image.url) } });
        return this.#bytes({ method: 'POST', path, query: options, bytes: image });
    }
    // System
    /** Liveness: the process answers. */
    getHealthz() {
        return this.#json({ method: 'GET', path: '/healthz' });
    }
    /** Readiness: the store answers. */
    getReadyz() {
        return this.#json({ method: 'GET', path: '/readyz' });
    }
    /** The deliberate test error: always throws UtilityMediaApiError (500, or `code`). */
    async getGenHtml(query = {}) {
        await this.#send({ method: 'GET', path: '/gen/html', query });
        throw new Error('/gen/html answered a success, which it never does');
    }
    /** The service: its docs URL and the operator's addresses (no key needed). */
    getRoot() {
        return this.#json({ method: 'GET', path: '/' });
    }
    /** Your key: id, created, name, limits, quota left and usage. */
    getMe() {
        return this.#json({ method: 'GET', path: '/me' });
    }
    // Colours
    /** A random colour (the same `seed` always gives the same colour). */
    getColorRandom(query = {}) {
        return this.#json({ method: 'GET', path: '/color/random', query });
    }
    /** Everything about a colour given by exactly one of name, hex or rgb. */
    getColorInfo(query) {
        return this.#json({ method: 'GET', path: '/color/info', query });
    }
    /** The colours of a picture (bytes, or `{ url }` for the server to fetch: an avatar): dominant, palette with shares, average, ThumbHash, text colour. */
    colorImage(image) {
        if (isUrlInput(image))
            return this.#json({ method: 'GET', path: '/color/image', query: { url: String(image.url) } });
        return this.#json({ method: 'POST', path: '/color/image', bytes: image });
    }
    // Gifs
    /** A random safe-for-work gif of a type (`amount` answers several in `gifs`). */
    getSfwGifImageType(imageType, query = {}) {
        return this.#json({ method: 'GET', path: `/sfw/gif/${encodeURIComponent(imageType)}`, query });
    }
    /** The gif types, with how many gifs each holds and the formats they are answered in. */
    getSfwGif() {
        return this.#json({ method: 'GET', path: '/sfw/gif' });
    }
    /** Reports a gif to the operator (answered 202: recorded, nothing changes until the operator acts). */
    postSfwGifIdReport(id, body) {
        return this.#json({ method: 'POST', path: `/sfw/gif/${encodeURIComponent(id)}/report`, json: body });
    }
    /** The bytes of a gif: its file name ("<sha256>.gif" or ".webp") or the `file` URL of a gif answer. */
    getFilesGifsFile(file) {
        return this.#bytes({ method: 'GET', path: `/files/gifs/${encodeURIComponent(gifName(file))}` });
    }
    /** A gif's size and validators without its bytes. */
    async headFilesGifsFile(file) {
        const { res, meta } = await this.#send({ method: 'HEAD', path: `/files/gifs/${encodeURIComponent(gifName(file))}` });
        return withMeta({ size: Number(res.headers.get('content-length') ?? 0), contentType: res.headers.get('content-type') ?? '', etag: res.headers.get('etag') }, meta);
    }
    // Text conversion
    /** HTML to GitHub-flavoured Markdown (`markdown` in the answer). */
    convertHtmlMarkdown(html) {
        return this.#json({ method: 'POST', path: '/convert/html-markdown', json: typeof html === 'string' ? { html } : html });
    }
    /** Markdown (CommonMark + GFM) to HTML, safe by default (`html` in the answer). */
    convertMarkdownHtml(markdown, options = {}) {
        return this.#json({ method: 'POST', path: '/convert/markdown-html', query: options, json: typeof markdown === 'string' ? { markdown } : markdown });
    }
    // Signed links (docs/links.md; signLink() signs one offline)
    /** Mints a link to a picture request that anyone can fetch with no header (a chat embed's image). */
    postLinks(body) {
        return this.#json({ method: 'POST', path: '/links', json: body });
    }
    /** Replaces your key's link secret (`links` in the answer): links signed with the old one stop working. */
    postMeLinksRoll() {
        return this.#json({ method: 'POST', path: '/me/links/roll' });
    }
    /** The picture a link names: the link as POST /links answered it, or its path ("/l/…"). */
    async getL(link) {
        const res = await this.#link('GET', link);
        return withMeta(new Uint8Array(await res.arrayBuffer()), metaOf(res, 1));
    }
    /** A link's size, type and validator without its bytes (the picture is drawn to know them). */
    async headL(link) {
        const res = await this.#link('HEAD', link);
        return withMeta({ size: Number(res.headers.get('content-length') ?? 0), contentType: res.headers.get('content-type') ?? '', etag: res.headers.get('etag') }, metaOf(res, 1));
    }
    /** A link is fetched as it is, with no header: its characters are what its signature covers. */
    async #link(method, link) {
        const res = await this.#fetch(/^https?:\/\//i.test(link) ? link : this.#base + link, { method });
        if (!res.ok)
            throw await errorOf(res);
        return res;
    }
    // Image generation
    /** Draws a template (a name from /list/templates: welcome, goodbye, rank, quote, leaderboard…): the image bytes (PNG unless `output` says). */
    genTemplate(template, fields = {}) {
        return this.#bytes({ method: 'POST', path: `/gen/${encodeURIComponent(template)}`, json: fields });
    }
    /** Draws a layered custom image: the image bytes (JPEG unless `output` says). */
    genCustom(image) {
        return this.#bytes({ method: 'POST', path: '/gen/custom', json: image });
    }
    /** The template names. */
    getListTemplates() {
        return this.#json({ method: 'GET', path: '/list/templates' });
    }
    /** The banner names (the server's own and the operator's). */
    getListBanners() {
        return this.#json({ method: 'GET', path: '/list/banners' });
    }
    /** The icon names. */
    getListIcons() {
        return this.#json({ method: 'GET', path: '/list/icons' });
    }
    /** The font names. */
    getListFonts() {
        return this.#json({ method: 'GET', path: '/list/fonts' });
    }
    /** A banner as a PNG. */
    getAssetsBannersName(name) {
        return this.#bytes({ method: 'GET', path: `/assets/banners/${encodeURIComponent(name)}` });
    }
    /** An icon as a PNG. */
    getAssetsIconsName(name) {
        return this.#bytes({ method: 'GET', path: `/assets/icons/${encodeURIComponent(name)}` });
    }
    // Image conversion
    /** Any image (JPEG, PNG, WebP, GIF, AVIF, TIFF) to PNG: bytes, or `{ url }` for the server to fetch (at most 15 MB, a public host). */
    convertImagePng(image, options = {}) {
        return this.#convert('/convert/image-png', image, options);
    }
    /** Any image to JPEG (transparency flattened onto `background`, white by default): bytes, or `{ url }`. */
    convertImageJpg(image, options = {}) {
        return this.#convert('/convert/image-jpg', image, options);
    }
    /** Any image to WebP (animations stay animated): bytes, or `{ url }`. */
    convertImageWebp(image, options = {}) {
        return this.#convert('/convert/image-webp', image, options);
    }
}
/** "https://host/files/gifs/<hash>.gif" or "<hash>.gif" → "<hash>.gif" (or .webp). */
function gifName(file) {
    return /^https?:\/\//i.test(file) ? new URL(file).pathname.split('/').pop() ?? '' : file;
}
