import type { components, operations } from './schema.js';
export type { components, operations, paths } from './schema.js';
export { customLinkTarget, type LinkSecret, linkTarget, signLink } from './link.js';
type Schemas = components['schemas'];
export type Envelope = Schemas['Envelope'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Colour = Schemas['Colour'];
export type PictureColours = Schemas['PictureColours'];
export type Gif = Schemas['Gif'];
export type GifAnswer = Schemas['GifAnswer'];
export type GifTypes = Schemas['GifTypes'];
export type GifReportAnswer = Schemas['GifReportAnswer'];
export type TemplateFields = Schemas['TemplateFields'];
export type CustomImage = Schemas['CustomImage'];
export type CustomImageLayer = Schemas['CustomImageLayer'];
export type CustomText = Schemas['CustomText'];
/** The JSON a successful call of the operation answers. */
export type AnswerOf<K extends keyof operations> = operations[K]['responses'] extends {
    200: {
        content: {
            'application/json': infer T;
        };
    };
} ? T : never;
/** The query parameters of the operation. */
export type QueryOf<K extends keyof operations> = operations[K]['parameters'] extends {
    query?: infer Q;
} ? NonNullable<Q> : never;
/** The JSON body of the operation. */
export type BodyOf<K extends keyof operations> = operations[K] extends {
    requestBody?: {
        content: {
            'application/json': infer B;
        };
    };
} ? B : never;
export type TemplateName = operations['genTemplate']['parameters']['path']['template'];
export type GifType = operations['getSfwGifImageType']['parameters']['path']['imageType'];
/** Options of the image conversions: output quality 1..100, JPEG background colour. */
export type ConvertOptions = Omit<QueryOf<'convertImagePng'>, 'url'>;
/** Bytes to upload: a Uint8Array (a Node Buffer is one), an ArrayBuffer or a Blob (a browser File is one). */
export type Upload = Uint8Array | ArrayBuffer | Blob;
/** What a conversion converts: bytes to upload, or `{ url }`, an image the server fetches (a chat attachment's URL). */
export type ImageInput = Upload | {
    url: string | URL;
};
/** A window of the key's rate limit or quota, as the X-RateLimit-* (X-Quota-*) headers tell it. */
export interface LimitState {
    /** Units per window (per quota period). */
    limit: number;
    /** Units left in it. */
    remaining: number;
    /** Seconds until it renews. */
    reset: number;
}
/** What the answer said beside its body. */
export interface ResponseMeta {
    /** The HTTP status. */
    status: number;
    /** Every header of the answer. */
    headers: Headers;
    /** X-Request-Id: quote it when reporting a problem. */
    requestId: string | undefined;
    /** The key's rate limit after this request (X-RateLimit-Limit, -Remaining, -Reset). */
    rateLimit: LimitState | undefined;
    /** The key's quota after this request, when it has one (X-Quota-*). */
    quota: LimitState | undefined;
    /** X-Image-Reduced: what a picture gave up to stay within max_bytes (colours, quality, frames, scale, still); empty when nothing. */
    reduced: string[];
    /** Requests sent for this answer: 1, or more when it was retried (ClientOptions.retry). */
    attempts: number;
}
/** An answer with its `meta` (not enumerable: JSON.stringify and deep equality see only the body). */
export type WithMeta<T> = T & {
    readonly meta: ResponseMeta;
};
/** Retrying 429 and 503 answers after the Retry-After they carry (ClientOptions.retry). */
export interface RetryOptions {
    /** Retries after the first request, at most (default 2). */
    retries?: number;
    /** The longest Retry-After waited for, in seconds (default 60): a longer one (a quota renewing tomorrow) throws at once. */
    maxRetryAfterSeconds?: number;
}
export interface ClientOptions {
    /** Where the API is, e.g. "https://api.example.com" (a path prefix is kept). */
    baseUrl: string;
    /** Your API key, sent as the Authorization header. */
    key: string;
    /** Another fetch (a mock, one with a proxy agent); the global fetch by default. */
    fetch?: typeof fetch;
    /** Extra headers sent with every request. */
    headers?: Record<string, string>;
    /**
     * Off by default. `true` or options: an answer 429 (rate limit, quota) or 503 (busy)
     * that carries Retry-After is sent again after that many seconds, up to `retries` times,
     * when Retry-After is at most `maxRetryAfterSeconds`; otherwise its error is thrown.
     */
    retry?: boolean | RetryOptions;
}
/** A failure answered by the API: the status and the JSON envelope (`error` is the stable code). */
export declare class UtilityMediaApiError extends Error {
    /** The HTTP status. */
    readonly status: number;
    /** The stable error code from the API's catalogue, e.g. "AUTH_UNKNOWN_KEY", "INVALID_COLOR". */
    readonly code: string;
    /** The request id: quote it when reporting a failure. */
    readonly requestId: string;
    /** The whole envelope, with any extra fields the error carries (valid values, a field name). */
    readonly envelope: ErrorEnvelope & Record<string, unknown>;
    /** Seconds to wait before retrying (429, 503), when the server said. */
    readonly retryAfter: number | undefined;
    /** The answer's headers, rate limit and attempts (undefined when built by hand). */
    readonly meta: ResponseMeta | undefined;
    constructor(status: number, envelope: ErrorEnvelope & Record<string, unknown>, retryAfter?: number, meta?: ResponseMeta);
}
export declare class UtilityMediaApi {
    #private;
    constructor(options: ClientOptions);
    /** Liveness: the process answers. */
    getHealthz(): Promise<WithMeta<AnswerOf<'getHealthz'>>>;
    /** Readiness: the store answers. */
    getReadyz(): Promise<WithMeta<AnswerOf<'getReadyz'>>>;
    /** The deliberate test error: always throws UtilityMediaApiError (500, or `code`). */
    getGenHtml(query?: QueryOf<'getGenHtml'>): Promise<never>;
    /** The service: its docs URL and the operator's addresses (no key needed). */
    getRoot(): Promise<WithMeta<AnswerOf<'getRoot'>>>;
    /** Your key: id, created, name, limits, quota left and usage. */
    getMe(): Promise<WithMeta<AnswerOf<'getMe'>>>;
    /** A random colour (the same `seed` always gives the same colour). */
    getColorRandom(query?: QueryOf<'getColorRandom'>): Promise<WithMeta<Colour>>;
    /** Everything about a colour given by exactly one of name, hex or rgb. */
    getColorInfo(query: QueryOf<'getColorInfo'>): Promise<WithMeta<Colour>>;
    /** The colours of a picture (bytes, or `{ url }` for the server to fetch: an avatar): dominant, palette with shares, average, ThumbHash, text colour. */
    colorImage(image: ImageInput): Promise<WithMeta<PictureColours>>;
    /** A random safe-for-work gif of a type (`amount` answers several in `gifs`). */
    getSfwGifImageType(imageType: GifType, query?: QueryOf<'getSfwGifImageType'>): Promise<WithMeta<GifAnswer>>;
    /** The gif types, with how many gifs each holds and the formats they are answered in. */
    getSfwGif(): Promise<WithMeta<GifTypes>>;
    /** Reports a gif to the operator (answered 202: recorded, nothing changes until the operator acts). */
    postSfwGifIdReport(id: string, body: BodyOf<'postSfwGifIdReport'>): Promise<WithMeta<GifReportAnswer>>;
    /** The bytes of a gif: its file name ("<sha256>.gif" or ".webp") or the `file` URL of a gif answer. */
    getFilesGifsFile(file: string): Promise<WithMeta<Uint8Array>>;
    /** A gif's size and validators without its bytes. */
    headFilesGifsFile(file: string): Promise<WithMeta<{
        size: number;
        contentType: string;
        etag: string | null;
    }>>;
    /** HTML to GitHub-flavoured Markdown (`markdown` in the answer). */
    convertHtmlMarkdown(html: string | BodyOf<'convertHtmlMarkdown'>): Promise<WithMeta<AnswerOf<'convertHtmlMarkdown'>>>;
    /** Markdown (CommonMark + GFM) to HTML, safe by default (`html` in the answer). */
    convertMarkdownHtml(markdown: string | BodyOf<'convertMarkdownHtml'>, options?: QueryOf<'convertMarkdownHtml'>): Promise<WithMeta<AnswerOf<'convertMarkdownHtml'>>>;
    /** Mints a link to a picture request that anyone can fetch with no header (a chat embed's image). */
    postLinks(body: BodyOf<'postLinks'>): Promise<WithMeta<AnswerOf<'postLinks'>>>;
    /** Replaces your key's link secret (`links` in the answer): links signed with the old one stop working. */
    postMeLinksRoll(): Promise<WithMeta<AnswerOf<'postMeLinksRoll'>>>;
    /** The picture a link names: the link as POST /links answered it, or its path ("/l/…"). */
    getL(link: string): Promise<WithMeta<Uint8Array>>;
    /** A link's size, type and validator without its bytes (the picture is drawn to know them). */
    headL(link: string): Promise<WithMeta<{
        size: number;
        contentType: string;
        etag: string | null;
    }>>;
    /** Draws a template (a name from /list/templates: welcome, goodbye, rank, quote, leaderboard…): the image bytes (PNG unless `output` says). */
    genTemplate(template: TemplateName, fields?: TemplateFields): Promise<WithMeta<Uint8Array>>;
    /** Draws a layered custom image: the image bytes (JPEG unless `output` says). */
    genCustom(image: CustomImage): Promise<WithMeta<Uint8Array>>;
    /** The template names. */
    getListTemplates(): Promise<WithMeta<AnswerOf<'getListTemplates'>>>;
    /** The banner names (the server's own and the operator's). */
    getListBanners(): Promise<WithMeta<AnswerOf<'getListBanners'>>>;
    /** The icon names. */
    getListIcons(): Promise<WithMeta<AnswerOf<'getListIcons'>>>;
    /** The font names. */
    getListFonts(): Promise<WithMeta<AnswerOf<'getListFonts'>>>;
    /** A banner as a PNG. */
    getAssetsBannersName(name: string): Promise<WithMeta<Uint8Array>>;
    /** An icon as a PNG. */
    getAssetsIconsName(name: string): Promise<WithMeta<Uint8Array>>;
    /** Any image (JPEG, PNG, WebP, GIF, AVIF, TIFF) to PNG: bytes, or `{ url }` for the server to fetch (at most 15 MB, a public host). */
    convertImagePng(image: ImageInput, options?: ConvertOptions): Promise<WithMeta<Uint8Array>>;
    /** Any image to JPEG (transparency flattened onto `background`, white by default): bytes, or `{ url }`. */
    convertImageJpg(image: ImageInput, options?: Omit<QueryOf<'convertImageJpg'>, 'url'>): Promise<WithMeta<Uint8Array>>;
    /** Any image to WebP (animations stay animated): bytes, or `{ url }`. */
    convertImageWebp(image: ImageInput, options?: Omit<QueryOf<'convertImageWebp'>, 'url'>): Promise<WithMeta<Uint8Array>>;
}
