export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** About this service: its docs and the operator's addresses (no key needed) */
        get: operations["getRoot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the store answers and the database file is the one opened
         * @description Answers 503 (SERVICE_UNAVAILABLE, with the same fields) when a dependency is down: the store does not answer, or the SQLite file was deleted or replaced while the server had it open. Only states are shown here; the operator finds the details on the metrics port's /readyz and in the logs.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gen/html": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Test error: always fails with the error envelope
         * @description The specification's deliberate test error, so client authors can exercise their error handling. Answers 500 by default; `code` (400 to 599) chooses the status.
         */
        get: operations["getGenHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your key: name, limits, quota and credits left, expiry and usage */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/me/links/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace your key's link secret: every link signed with the old one stops working
         * @description Answers the new secret. Links minted or signed before stop working at once on this instance, and on the others within KEY_CACHE_TTL_MS (403 LINK_INVALID); the key itself and its link id stay the same.
         */
        post: operations["postMeLinksRoll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a signed link to a picture, fetchable with no header (for chat embeds)
         * @description Runs the request once as your key (it is drawn and counted now, and a request that would be refused is refused now, with the same error), then answers a link anyone can fetch until it expires. Every /gen/{template} and /gen/custom request can be linked, in every output format, and the image conversions of a URL (/convert/image-png, -jpg and -webp with url=). A request too long for a short link is kept by the server and linked by id. Links made with a secret that was rolled stop working. See docs/links.md, which also shows how to sign links yourself with no call at all.
         */
        post: operations["postLinks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/l/{*}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A signed link: the picture it names, with no header
         * @description The path is /l/{linkId}/{expires}/{signature}{target}, as POST /links answers it or a signer makes it (docs/links.md). 403 when the signature does not match (before any work), 410 once expired, 403 when the key that made it is disabled or revoked; otherwise the picture, or the error the keyed request would get. A link that never expires is cacheable for a year (immutable), an expiring one until it expires; ETag and If-None-Match (304) as on the keyed request.
         */
        get: operations["getL"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A signed link: the picture it names, with no header
         * @description The path is /l/{linkId}/{expires}/{signature}{target}, as POST /links answers it or a signer makes it (docs/links.md). 403 when the signature does not match (before any work), 410 once expired, 403 when the key that made it is disabled or revoked; otherwise the picture, or the error the keyed request would get. A link that never expires is cacheable for a year (immutable), an expiring one until it expires; ETag and If-None-Match (304) as on the keyed request.
         */
        head: operations["headL"];
        patch?: never;
        trace?: never;
    };
    "/color/random": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A random colour, uniform over the sRGB cube, with its name and everything about it */
        get: operations["getColorRandom"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/color/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Everything about a colour given by exactly one of name, hex or rgb */
        get: operations["getColorInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sfw/gif/{imageType}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A random safe-for-work gif of a category
         * @description Picks uniformly at random among the category's gifs. Types: baka, bite, blush, cry, dance, feed, fluff, grab, handhold, highfive, hug, kiss, laugh, lick, neko, pat, poke, punch, shrug, slap, smug, stare, tickle, wag, wasted, wave, wink. Beside `id` and `file`: attribution (`anime_name`, `artist`, `artist_url`, `source_url`), `width`, `height`, `frames`, `bytes` and `dominant_color`, null when unknown. An unknown type answers 400 (`GIF_UNKNOWN_TYPE`, with `validTypes`); a category without gifs answers 404 (`GIF_CATEGORY_EMPTY`). `?amount=N` (1 to 20) also answers `gifs`, a list of N distinct gifs, for bots that prefetch. `?exclude=ID,…` (at most 100 ids) never answers those gifs (404 `GIF_ALL_EXCLUDED` when they are all the category holds); `?norepeat=N` (1 to 50) does not answer any of the last N gifs this key was shown in the category (fewer when the category holds N gifs or fewer). `?format=webp` links an animated WebP instead of the GIF.
         */
        get: operations["getSfwGifImageType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sfw/gif": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The gif types, with how many gifs each holds
         * @description The 27 types GET /sfw/gif/{imageType} answers, each with the number of gifs it can pick from and the formats it answers in.
         */
        get: operations["getSfwGif"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sfw/gif/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a gif to the operator
         * @description Records that this key finds a gif wrong, for the operator's `gifs reports` (who may then hide or remove it). Reasons: not_sfw, wrong_category, broken, duplicate, other. Answers 202: the report is recorded, nothing changes until the operator acts. A key may report 20 times an hour (429 `RATE_LIMITED` past it, with Retry-After); reporting the same gif for the same reason again records nothing new. An unknown id answers 404 `GIF_NOT_FOUND`.
         */
        post: operations["postSfwGifIdReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/gifs/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A gif file (public, no key)
         * @description The image/gif bytes of a gif named by its SHA-256, as linked by GET /sfw/gif/{imageType}; `<sha256>.webp`: the same gif as an animated WebP (lossless, made on its first request and kept; 503 `WORK_BUSY` with Retry-After when the server is too busy to make it now). Immutable: strong ETag (the hash), Last-Modified, a year of caching, 304 on If-None-Match / If-Modified-Since, single byte ranges (206, 416). The gif's attribution, when known, in `X-Anime-Name`, `X-Artist`, `X-Artist-Url` and `X-Source-Url` (percent-encoded UTF-8). A hidden gif answers 404. Errors are the JSON envelope.
         */
        get: operations["getFilesGifsFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * A gif file (public, no key)
         * @description The image/gif bytes of a gif named by its SHA-256, as linked by GET /sfw/gif/{imageType}; `<sha256>.webp`: the same gif as an animated WebP (lossless, made on its first request and kept; 503 `WORK_BUSY` with Retry-After when the server is too busy to make it now). Immutable: strong ETag (the hash), Last-Modified, a year of caching, 304 on If-None-Match / If-Modified-Since, single byte ranges (206, 416). The gif's attribution, when known, in `X-Anime-Name`, `X-Artist`, `X-Artist-Url` and `X-Source-Url` (percent-encoded UTF-8). A hidden gif answers 404. Errors are the JSON envelope.
         */
        head: operations["headFilesGifsFile"];
        patch?: never;
        trace?: never;
    };
    "/convert/html-markdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Convert HTML to GitHub-flavoured Markdown — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /convert/html-markdown` (`convertHtmlMarkdown`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     Headings, emphasis, links and images (titles kept), nested and ordered lists, block quotes, code, fenced code blocks (language kept), tables (alignment kept), strikethrough, task lists, rules and line breaks. Script, style, template, noscript and comments never reach the output; unknown tags keep their text. Body: the HTML (raw, JSON string, {"html"} or {"body"}), at most 4 MiB.
         */
        get: operations["convertHtmlMarkdownViaGet"];
        put?: never;
        /**
         * Convert HTML to GitHub-flavoured Markdown
         * @description Headings, emphasis, links and images (titles kept), nested and ordered lists, block quotes, code, fenced code blocks (language kept), tables (alignment kept), strikethrough, task lists, rules and line breaks. Script, style, template, noscript and comments never reach the output; unknown tags keep their text. Body: the HTML (raw, JSON string, {"html"} or {"body"}), at most 4 MiB.
         */
        post: operations["convertHtmlMarkdown"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/convert/markdown-html": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Convert Markdown (CommonMark + GFM) to HTML, safe by default — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /convert/markdown-html` (`convertMarkdownHtml`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     CommonMark 0.31.2 with GitHub tables, strikethrough and task lists. Raw HTML in the Markdown is escaped (shown as text) unless `unsafe=true`; javascript:, vbscript:, file: and non-image data: URLs never become links or images. Options go in the query string or the JSON object. Body: the Markdown (raw, JSON string, {"markdown"} or {"body"}), at most 4 MiB.
         */
        get: operations["convertMarkdownHtmlViaGet"];
        put?: never;
        /**
         * Convert Markdown (CommonMark + GFM) to HTML, safe by default
         * @description CommonMark 0.31.2 with GitHub tables, strikethrough and task lists. Raw HTML in the Markdown is escaped (shown as text) unless `unsafe=true`; javascript:, vbscript:, file: and non-image data: URLs never become links or images. Options go in the query string or the JSON object. Body: the Markdown (raw, JSON string, {"markdown"} or {"body"}), at most 4 MiB.
         */
        post: operations["convertMarkdownHtml"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gen/{template}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Draw a template (welcome, goodbye, rank, quote, leaderboard, profile, nowplaying) — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /gen/{template}` (`genTemplate`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     Fields as query parameters or a JSON body (GET or POST). The image bytes (image/png, image/jpeg, image/webp or image/gif as asked by `output` or `format`; an animated GIF or WebP when an image moves, see `animated`), at most `max_bytes`, with X-Image-Reduced naming what was reduced to stay within it (colours, quality, frames, scale, still); errors are JSON envelopes. A parameter the template does not read is accepted and named in the X-Ignored-Parameters header (comma-separated, percent-encoded, lower-cased), also on error answers. Templates: `welcome` (A welcome banner: avatar, username, member count, icon and banner); `goodbye` (A goodbye banner, the welcome banner's twin for members who leave); `rank` (A rank / level card: avatar, name, level, rank and an XP progress bar); `quote` (A quote card: a message in large type with the author's avatar and name); `leaderboard` (A leaderboard: a header and a page of up to 20 of 100 players (rank, avatar, names, level and XP or any value), the current member highlighted); `profile` (A profile card: banner, avatar with decoration and presence, names, badges, subtitle, member since and an optional rank block); `nowplaying` (A now-playing card: album art, title, artist, elapsed and total time with a progress bar, a queue line).
         */
        get: operations["genTemplateViaGet"];
        put?: never;
        /**
         * Draw a template (welcome, goodbye, rank, quote, leaderboard, profile, nowplaying)
         * @description Fields as query parameters or a JSON body (GET or POST). The image bytes (image/png, image/jpeg, image/webp or image/gif as asked by `output` or `format`; an animated GIF or WebP when an image moves, see `animated`), at most `max_bytes`, with X-Image-Reduced naming what was reduced to stay within it (colours, quality, frames, scale, still); errors are JSON envelopes. A parameter the template does not read is accepted and named in the X-Ignored-Parameters header (comma-separated, percent-encoded, lower-cased), also on error answers. Templates: `welcome` (A welcome banner: avatar, username, member count, icon and banner); `goodbye` (A goodbye banner, the welcome banner's twin for members who leave); `rank` (A rank / level card: avatar, name, level, rank and an XP progress bar); `quote` (A quote card: a message in large type with the author's avatar and name); `leaderboard` (A leaderboard: a header and a page of up to 20 of 100 players (rank, avatar, names, level and XP or any value), the current member highlighted); `profile` (A profile card: banner, avatar with decoration and presence, names, badges, subtitle, member since and an optional rank block); `nowplaying` (A now-playing card: album art, title, artist, elapsed and total time with a progress bar, a queue line).
         */
        post: operations["genTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/gen/custom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Draw a layered custom image — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /gen/custom` (`genCustom`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     A base (rectangle or image), image elements and texts, drawn in order. The image bytes (image/png, image/jpeg, image/webp or image/gif as asked by `output` or `format`; an animated GIF or WebP when an image moves, see `animated`), at most `max_bytes`, with X-Image-Reduced naming what was reduced to stay within it (colours, quality, frames, scale, still); errors are JSON envelopes. See docs/generation.md for every field and limit.
         */
        get: operations["genCustomViaGet"];
        put?: never;
        /**
         * Draw a layered custom image
         * @description A base (rectangle or image), image elements and texts, drawn in order. The image bytes (image/png, image/jpeg, image/webp or image/gif as asked by `output` or `format`; an animated GIF or WebP when an image moves, see `animated`), at most `max_bytes`, with X-Image-Reduced naming what was reduced to stay within it (colours, quality, frames, scale, still); errors are JSON envelopes. See docs/generation.md for every field and limit.
         */
        post: operations["genCustom"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The templates /gen accepts */
        get: operations["getListTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list/banners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The banners /gen accepts */
        get: operations["getListBanners"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list/icons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The icons /gen accepts */
        get: operations["getListIcons"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list/fonts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The fonts /gen accepts */
        get: operations["getListFonts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/banners/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview of a banner (PNG, public)
         * @description The banner as a PNG image, without an API key, so it can be linked from chat embeds.
         */
        get: operations["getAssetsBannersName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/icons/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview of a icon (PNG, public)
         * @description The icon as a PNG image, without an API key, so it can be linked from chat embeds.
         */
        get: operations["getAssetsIconsName"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/color/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The colours of a picture: dominant, a palette of up to 8 with their shares, the average, a ThumbHash placeholder, a readable text colour — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /color/image` (`colorImage`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     Send the picture (PNG, JPEG, WebP, GIF, AVIF or TIFF; at most 8 MB and 25 megapixels; an animation's first frame) as the raw request body with any content type, or give its address in `url` and no body (GET /color/image?url=…, an avatar URL): the server fetches it from a public host. The picture is decoded shrunk to fit 100×100; pixels less than half opaque are not counted. Each colour carries `int`, the number a Discord embed's `color` field takes, and its nearest name. Errors are the JSON envelope.
         */
        get: operations["colorImageViaGet"];
        put?: never;
        /**
         * The colours of a picture: dominant, a palette of up to 8 with their shares, the average, a ThumbHash placeholder, a readable text colour
         * @description Send the picture (PNG, JPEG, WebP, GIF, AVIF or TIFF; at most 8 MB and 25 megapixels; an animation's first frame) as the raw request body with any content type, or give its address in `url` and no body (GET /color/image?url=…, an avatar URL): the server fetches it from a public host. The picture is decoded shrunk to fit 100×100; pixels less than half opaque are not counted. Each colour carries `int`, the number a Discord embed's `color` field takes, and its nearest name. Errors are the JSON envelope.
         */
        post: operations["colorImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/convert/image-png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Convert an image to PNG — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /convert/image-png` (`convertImagePng`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     Send the image (JPEG, PNG, WebP, GIF, AVIF, TIFF; at most 15 MB) as the raw request body with any content type, or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. Answers the PNG bytes (Content-Type image/png) with X-Image-Width, X-Image-Height and X-Image-Frames headers; an animation is answered with its first frame. EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.
         */
        get: operations["convertImagePngViaGet"];
        put?: never;
        /**
         * Convert an image to PNG
         * @description Send the image (JPEG, PNG, WebP, GIF, AVIF, TIFF; at most 15 MB) as the raw request body with any content type, or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. Answers the PNG bytes (Content-Type image/png) with X-Image-Width, X-Image-Height and X-Image-Frames headers; an animation is answered with its first frame. EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.
         */
        post: operations["convertImagePng"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/convert/image-jpg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Convert an image to JPEG — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /convert/image-jpg` (`convertImageJpg`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     Send the image (JPEG, PNG, WebP, GIF, AVIF, TIFF; at most 15 MB) as the raw request body with any content type, or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. Answers the JPEG bytes (Content-Type image/jpeg) with X-Image-Width, X-Image-Height and X-Image-Frames headers; an animation is answered with its first frame. EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.
         */
        get: operations["convertImageJpgViaGet"];
        put?: never;
        /**
         * Convert an image to JPEG
         * @description Send the image (JPEG, PNG, WebP, GIF, AVIF, TIFF; at most 15 MB) as the raw request body with any content type, or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. Answers the JPEG bytes (Content-Type image/jpeg) with X-Image-Width, X-Image-Height and X-Image-Frames headers; an animation is answered with its first frame. EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.
         */
        post: operations["convertImageJpg"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/convert/image-webp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Convert an image to WebP — GET with a body, for older clients
         * @description GET with a body is the compatibility path of the clients that send one (the C# and Rust clients): the body of `POST /convert/image-webp` (`convertImageWebp`), read the same way. Browsers cannot send a body with GET, so this operation declares none and "Try it out" sends it without one: from a browser, and in new code, use POST.
         *
         *     Send the image (JPEG, PNG, WebP, GIF, AVIF, TIFF; at most 15 MB) as the raw request body with any content type, or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. Answers the WebP bytes (Content-Type image/webp) with X-Image-Width, X-Image-Height and X-Image-Frames headers; an animated GIF or WebP stays animated. EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.
         */
        get: operations["convertImageWebpViaGet"];
        put?: never;
        /**
         * Convert an image to WebP
         * @description Send the image (JPEG, PNG, WebP, GIF, AVIF, TIFF; at most 15 MB) as the raw request body with any content type, or as multipart/form-data in a part named "file" (or the only file part; the form may also carry "quality" and "background"), or give its address in `url` and no body (GET /convert/image-…?url=…): the server fetches it from a public host, at most 15 MB. Answers the WebP bytes (Content-Type image/webp) with X-Image-Width, X-Image-Height and X-Image-Frames headers; an animated GIF or WebP stays animated. EXIF orientation is applied, metadata removed, colours converted to sRGB. Errors are the JSON envelope.
         */
        post: operations["convertImageWebp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The fields every JSON answer carries */
        Envelope: {
            /** @description true on success, false on failure */
            success: boolean;
            /**
             * @description The HTTP status of the answer
             * @example 200
             */
            code: number;
            /** @description Empty on success; on failure, what went wrong and what to do about it */
            message: string;
        };
        /** @description Every failure, on every route, is answered with this JSON envelope */
        ErrorEnvelope: {
            /** @constant */
            success: false;
            /**
             * @description The HTTP status of the answer
             * @example 400
             */
            code: number;
            /** @description What went wrong, and what to do about it */
            message: string;
            /**
             * @description Stable error code from the catalogue, for programs
             * @example VALIDATION
             */
            error: string;
            /** @description The request id, also in the X-Request-Id header: quote it when reporting a failure */
            requestId: string;
        } & {
            [key: string]: unknown;
        };
        Colour: components["schemas"]["Envelope"] & {
            r: number;
            g: number;
            b: number;
            /**
             * @description Lowercase "#rrggbb"
             * @example #2f4f4f
             */
            hex: string;
            /**
             * @description The colour's name: for a value, the nearest named colour by CIEDE2000 (CSS keywords win exact matches)
             * @example Dark Slate Gray
             */
            name: string;
            /** @description true when the named colour has exactly this value */
            exactName: boolean;
            /** @description CIEDE2000 distance from this colour to the named colour (0 when exact) */
            nameDistance: number;
            /** @description The named colour's own "#rrggbb" */
            nameHex: string;
            /** @description Opacity 0..1 from a 4- or 8-digit hex; 1 otherwise. Every other field describes the opaque colour */
            alpha: number;
            /** @example rgb(47, 79, 79) */
            rgb: string;
            hsl: {
                /** @description Hue, degrees */
                h: number;
                /** @description Saturation, % */
                s: number;
                /** @description Lightness, % */
                l: number;
            };
            hsv: {
                /** @description Hue, degrees */
                h: number;
                /** @description Saturation, % */
                s: number;
                /** @description Value, % */
                v: number;
            };
            /** @description Naive CMYK (no colour profile) */
            cmyk: {
                /** @description % */
                c: number;
                /** @description % */
                m: number;
                /** @description % */
                y: number;
                /** @description % */
                k: number;
            };
            /** @description CIELAB, D65 white */
            lab: {
                /** @description L* */
                l: number;
                /** @description a* */
                a: number;
                /** @description b* */
                b: number;
            };
            /** @description WCAG 2 relative luminance, 0..1 */
            luminance: number;
            text: {
                /** @description The text colour with the higher WCAG contrast on this colour */
                color: "black" | "white";
                hex: string;
                /** @description WCAG contrast ratio of black text on this colour */
                contrastWithBlack: number;
                /** @description WCAG contrast ratio of white text on this colour */
                contrastWithWhite: number;
            };
            /** @description Hue turned 180° at the same HSL saturation and lightness */
            complementary: {
                r: number;
                g: number;
                b: number;
                hex: string;
                name: string;
            };
            /** @description /color/random: the seed, when one was given */
            seed?: string;
        };
        Gif: {
            /**
             * @description The gif's id: numeric, stable for that gif
             * @example 42
             */
            id: string;
            /**
             * @description Absolute URL of the gif, fetchable without a key
             * @example https://api.example.com/files/gifs/3f5a….gif
             */
            file: string;
            /**
             * @description The anime (or other work) the gif comes from; null when unknown
             * @example Frieren: Beyond Journey's End
             */
            anime_name: string | null;
            /**
             * @description Who made the gif; null when unknown
             * @example someone
             */
            artist: string | null;
            /**
             * @description Where to find the artist; null when unknown
             * @example https://example.com/someone
             */
            artist_url: string | null;
            /**
             * @description Where the gif was taken from; null when unknown
             * @example https://example.com/post/1
             */
            source_url: string | null;
            /**
             * @description Width in pixels (null for an external gif added without it)
             * @example 240
             */
            width: number | null;
            /**
             * @description Height in pixels
             * @example 160
             */
            height: number | null;
            /**
             * @description Number of frames
             * @example 10
             */
            frames: number | null;
            /**
             * @description Size of the GIF file in bytes
             * @example 48213
             */
            bytes: number | null;
            /**
             * @description The colour most of the gif is, `#rrggbb` (for an embed's colour); null when unknown
             * @example #e8a0b4
             */
            dominant_color: string | null;
        };
        GifAnswer: components["schemas"]["Envelope"] & {
            /**
             * @description The gif's id: numeric, stable for that gif
             * @example 42
             */
            id: string;
            /**
             * @description Absolute URL of the gif, fetchable without a key
             * @example https://api.example.com/files/gifs/3f5a….gif
             */
            file: string;
            /**
             * @description The anime (or other work) the gif comes from; null when unknown
             * @example Frieren: Beyond Journey's End
             */
            anime_name: string | null;
            /**
             * @description Who made the gif; null when unknown
             * @example someone
             */
            artist: string | null;
            /**
             * @description Where to find the artist; null when unknown
             * @example https://example.com/someone
             */
            artist_url: string | null;
            /**
             * @description Where the gif was taken from; null when unknown
             * @example https://example.com/post/1
             */
            source_url: string | null;
            /**
             * @description Width in pixels (null for an external gif added without it)
             * @example 240
             */
            width: number | null;
            /**
             * @description Height in pixels
             * @example 160
             */
            height: number | null;
            /**
             * @description Number of frames
             * @example 10
             */
            frames: number | null;
            /**
             * @description Size of the GIF file in bytes
             * @example 48213
             */
            bytes: number | null;
            /**
             * @description The colour most of the gif is, `#rrggbb` (for an embed's colour); null when unknown
             * @example #e8a0b4
             */
            dominant_color: string | null;
            /** @description Only with ?amount: that many distinct gifs (fewer if the category holds fewer), the first being the top-level fields */
            gifs?: components["schemas"]["Gif"][];
        };
        GifTypes: components["schemas"]["Envelope"] & {
            /** @description The 27 types, in alphabetical order */
            types: {
                /**
                 * @description The type, as GET /sfw/gif/{imageType} takes it
                 * @example hug
                 */
                name: string;
                /**
                 * @description Gifs that can be picked (hidden ones are not counted)
                 * @example 81
                 */
                count: number;
                /**
                 * @description The formats its gifs are answered in (`?format=`)
                 * @example [
                 *       "gif",
                 *       "webp"
                 *     ]
                 */
                formats: string[];
            }[];
        };
        GifReportAnswer: components["schemas"]["Envelope"] & {
            /**
             * @description The report's id
             * @example 7
             */
            id: string;
            /**
             * @description The id of the gif reported
             * @example 42
             */
            gif: string;
            /** @example not_sfw */
            reason: string;
        };
        /** @description Every field is a string, or a number where it is one (level, xp, max_bytes…); each template reads its own (see each field) */
        TemplateFields: {
            /**
             * @description png, jpg, webp or gif (each template has its default: png); gif and webp move when an image does (animated)
             * @enum {string}
             */
            output?: "png" | "jpg" | "jpeg" | "webp" | "gif";
            /**
             * @description The same as output
             * @enum {string}
             */
            format?: "png" | "jpg" | "jpeg" | "webp" | "gif";
            /**
             * @description auto (default: the picture moves when an avatar, banner or icon is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames)
             * @enum {string}
             */
            animated?: "auto" | "true" | "false";
            /** @description Largest answer in bytes, 1024..10485760 (default 10485760): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says */
            max_bytes?: string | number;
            /** @description (leaderboard) true (default): numbers in the locale's short form (1.2K, 1,2 k, 1234 and 1.2万); false: in full (1,234). Default: true */
            abbreviate?: string;
            /** @description profile: Accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the border, the strip without a banner, the bar (default #5865f2); nowplaying: Accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the label, the bar and the tint (default: the album art's dominant colour) */
            accent?: string;
            /** @description (profile) Second accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the accent becomes a gradient to it (default: the accent, deepened) */
            accent_end?: string;
            /** @description (nowplaying) URL of the album art (its dominant colour tints the card when no accent is given) */
            album_art?: string;
            /** @description (nowplaying) The artist */
            artist?: string;
            /** @description welcome: URL of the avatar image (a letter on a disc when absent); goodbye: URL of the avatar image (a letter on a disc when absent); rank: URL of the avatar image; quote: URL of the author's avatar image; profile: URL of the avatar image (a letter on a disc when absent) */
            avatar?: string;
            /**
             * @description (profile) round or square (rounded corners). Default: round
             * @enum {string}
             */
            avatar_shape?: "round" | "square";
            /** @description welcome: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"), under the banner (default #23272a); goodbye: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"), under the banner (default #23272a); rank: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #23272a); quote: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #1e1f22); leaderboard: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #1e1f22); profile: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #111214) */
            background?: string;
            /** @description (profile) Up to 12 badges, drawn in order from the name: image URLs or names from /list/icons, separated by commas (a query parameter) or a JSON array of strings (a body) */
            badges?: string[] | string;
            /** @description welcome: A name from /list/banners or an image URL, the background picture; goodbye: A name from /list/banners or an image URL, the background picture; rank: A name from /list/banners or an image URL behind the card; leaderboard: A name from /list/banners or an image URL behind the card; profile: A name from /list/banners or an image URL, the background picture */
            banner?: "space" | "love" | "purplewave" | "mountain" | "wave" | "sunset" | "rainbow" | "swamp" | "aurora" | "grid" | (string & {});
            /** @description (profile) Blur of the banner in pixels, 0..40. Default: 0 */
            banner_blur?: string | number;
            /** @description (profile) Brightness of the banner in percent, 0..100 (lower is dimmer). Default: 100 */
            banner_brightness?: string | number;
            /**
             * @description (profile) top (the banner above the names, default) or full (behind the whole card, under a shaded panel). Default: top
             * @enum {string}
             */
            banner_style?: "top" | "full";
            /** @description (leaderboard) The highlighted row's colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: #5865f2 */
            color_accent?: string;
            /** @description rank: Progress bar colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #5865f2); profile: Progress bar colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") */
            color_bar?: string;
            /** @description (welcome, goodbye) Colour of the members line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: #c8ccd0 */
            color_members?: string;
            /** @description (rank, quote, leaderboard, profile) Text colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: white */
            color_text?: string;
            /** @description (welcome, goodbye) Colour of the username (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: white */
            color_username?: string;
            /** @description welcome: Colour of the "WELCOME" line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default white); goodbye: Colour of the "GOODBYE" line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #ff8a80) */
            color_welcome?: string;
            /** @description (profile) The avatar's decoration frame, drawn over it: an image URL (Discord's avatar decorations) or a name from /list/icons */
            decoration?: string;
            /** @description (profile) The name shown large (the username when absent); long names shrink, then end in "…" */
            display_name?: string;
            /** @description (nowplaying) The track's length: seconds (215) or a clock (3:35); 0 or absent: unknown (a live stream). Default: 0 */
            duration?: string;
            /** @description (nowplaying) Time played: seconds (95) or a clock (1:35). Default: 0 */
            elapsed?: string;
            /** @description welcome: A name from /list/fonts (default Sans Serif); goodbye: A name from /list/fonts (default Sans Serif); rank: A name from /list/fonts (default Sans Serif); quote: A name from /list/fonts (default Noto Serif); leaderboard: A name from /list/fonts (default Sans Serif); profile: A name from /list/fonts (default Sans Serif); nowplaying: A name from /list/fonts (default Sans Serif) */
            font?: string;
            /** @description (leaderboard) The current member: a player's id, username or rank; that row is drawn in the accent colour */
            highlight?: string;
            /** @description (welcome, goodbye) A name from /list/icons or an image URL, drawn in the top right corner */
            icon?: "star" | "heart" | "moon" | "sun" | "crown" | "shield" | "bolt" | "leaf" | "flame" | "diamond" | "paw" | "music" | "cat" | "neko" | "nyancat" | "dog" | "dragon" | "senko" | "pepe" | "shrek" | "pikachu" | "chika" | (string & {});
            /** @description (leaderboard) A name from /list/icons or an image URL, the header's round picture (a server icon) */
            image?: string;
            /** @description (leaderboard) The label of players' value (e.g. "messages"), at most 40 characters; a player's own label wins */
            label?: string;
            /** @description (rank, profile) Current level. Default: 1 */
            level?: string | number;
            /** @description The language of the fixed labels, numbers and dates: a locale as Discord spells it (an interaction's `locale`), or ar (right to left: the card is mirrored); en, es, pt, sv, zh, zh-Hant, nb and regional tags such as fr-CA or pt-br are read too (docs/generation.md, "Languages"). Labels the request gives itself are drawn as given. Default: en-US */
            locale?: "id" | "da" | "de" | "en-GB" | "en-US" | "es-ES" | "es-419" | "fr" | "hr" | "it" | "lt" | "hu" | "nl" | "no" | "pl" | "pt-BR" | "ro" | "fi" | "sv-SE" | "vi" | "tr" | "cs" | "el" | "bg" | "ru" | "uk" | "hi" | "th" | "zh-CN" | "ja" | "zh-TW" | "ko" | "ar" | (string & {});
            /** @description (rank, profile) XP needed for the next level. Default: 100 */
            max_xp?: string | number;
            /** @description (welcome, goodbye) The member's number, drawn as the third line in the locale ("Member #42", "Membre n° 42", "42 人目のメンバー") when `members` is not given */
            member_count?: string | number;
            /** @description (profile) The date the member joined: 2021-03-14, Unix time, or a Discord id (the date it was made) */
            member_since?: string;
            /** @description (welcome, goodbye) Third line, free text, e.g. "Member #42" */
            members?: string;
            /** @description (nowplaying) The next track's title, on the queue line */
            next?: string;
            /** @description (leaderboard) The page drawn, from 1 to the page count. Default: 1 */
            page?: string | number;
            /** @description (leaderboard) Players a page draws, 1 to 20. Default: 10 */
            per_page?: string | number;
            /** @description (leaderboard) The players, 1 to 100: a JSON array (a JSON value in a body, or JSON text in the query string) of objects with username and/or display_name (at most 100 characters, Discord emoji markup drawn), avatar (an image URL), level, xp, value with its label (any score, shown instead of the XP), rank (default: the place in the list; players are drawn by rank) and id; keys in any case (displayName works) */
            players?: ({
                username?: string;
                display_name?: string;
                avatar?: string;
                level?: number | string;
                xp?: number | string;
                value?: number | string;
                label?: string;
                rank?: number | string;
                id?: string;
            } & {
                [key: string]: unknown;
            })[] | string;
            /** @description (nowplaying) Tracks in the queue, on the queue line (0..1000000). Default: 0 */
            queue?: string | number;
            /** @description (rank, profile) Position on the leaderboard. Default: 1 */
            rank?: string | number;
            /**
             * @description (profile) large (800 wide, 300 to 450 high as the subtitle and the rank block need; default) or small (600 wide, 225 to 338 high). Default: large
             * @enum {string}
             */
            size?: "large" | "small";
            /**
             * @description rank: The member's presence as a coloured ring round the avatar, in Discord's colours: online, idle, dnd, offline, invisible, streaming; none (default) draws the white ring (default none); profile: Presence mark at the avatar's corner, in Discord's colours and shapes: online, idle, dnd, offline (or invisible), streaming; none (default) draws none (default none)
             * @enum {string}
             */
            status?: "none" | "online" | "idle" | "dnd" | "offline" | "invisible" | "streaming";
            /** @description leaderboard: The line under the title (with the page count when there are several pages); profile: A line or two under the names (a custom status, a bio) */
            subtitle?: string;
            /** @description welcome: The title line instead of "WELCOME" (or its word in the locale) (default WELCOME); goodbye: The title line instead of "GOODBYE" (or its word in the locale) (default GOODBYE); quote: The quoted message; wraps, and shrinks when long (default …) */
            text?: string;
            /**
             * @description (nowplaying) dark (default) or light. Default: dark
             * @enum {string}
             */
            theme?: "dark" | "light";
            /** @description leaderboard: The header's title (default: "Leaderboard" in the locale) (default Leaderboard); nowplaying: The track's title (default Unknown title) */
            title?: string;
            /** @description welcome: The member's name; long names shrink, then end in "…" (default Someone); goodbye: The member's name; long names shrink, then end in "…" (default Someone); rank: The member's name (default Someone); quote: Who said it (default Someone); profile: The member's name (default Someone) */
            username?: string;
            /** @description (rank, profile) XP within the current level. Default: 0 */
            xp?: string | number;
        } & {
            [key: string]: unknown;
        };
        CustomBase: {
            /** @description "bitmap" (a rectangle) or "url" (an image); a base with a url is an image */
            type?: string;
            /** @description Image of the base: an absolute http(s) URL, or a name from /list/banners or /list/icons ("space", "banner:space", "icon:star"); the canvas takes its size unless width/height are given */
            url?: string;
            /** @description Canvas width, 1..3000 */
            width?: number;
            /** @description Canvas height, 1..3000 */
            height?: number;
            /** @description Fill colour of a rectangle base */
            color?: string;
        } & {
            [key: string]: unknown;
        };
        CustomImageLayer: {
            /**
             * @description bitmap (a rectangle, filled with color, or showing the url's image when there is one), url (an image), circle or triangle (the image clipped to that shape, or filled with color); a url element may omit it
             * @enum {string}
             */
            type?: "bitmap" | "url" | "circle" | "triangle";
            /** @description The image: an absolute http(s) URL, or a name from /list/icons or /list/banners ("star", "icon:star", "banner:space") */
            url?: string;
            /** @description Width */
            width?: number;
            /** @description Height */
            height?: number;
            /** @description Sets width and height */
            size?: number;
            /** @description Scale down to at most this width */
            maxwidth?: number;
            /** @description Scale down to at most this height */
            maxheight?: number;
            /** @description Left */
            x?: number;
            /** @description Top */
            y?: number;
            /** @description Corner radius (large values make round avatars) */
            round?: number;
            /** @description Circle radius */
            radius?: number;
            /** @description Rotation in degrees, around the element's centre */
            rotate?: number;
            /** @description Fill colour of shapes */
            color?: string;
            /**
             * @description Triangle corner: topleft, topright, bottomleft, bottomright
             * @enum {string}
             */
            cut?: "topleft" | "topright" | "bottomleft" | "bottomright";
            /** @description grayscale, sepia, invert, blur, or a CSS filter such as "blur(4px)" */
            filter?: string;
            /** @description 0 (transparent) to 10 (opaque, the default); 5 is half. A fraction below 1 such as 0.4 is read as 0..1 */
            opacity?: number;
            /** @description Accepted for compatibility: fetched images are always cached briefly */
            cache?: boolean;
            /** @description true hides the element */
            skip?: boolean;
        } & {
            [key: string]: unknown;
        };
        CustomText: {
            /** @description The text */
            text?: string;
            /** @description Several lines */
            texts?: string[];
            /** @description Font size in pixels (16) */
            size?: number;
            /** @description A name from /list/fonts ("Sans Serif") */
            font?: string;
            /** @description Text colour (white) */
            color?: string;
            /** @description Background box colour */
            back?: string;
            /** @description Anchor x */
            x?: number;
            /** @description Top y */
            y?: number;
            /**
             * @description l, m or r (left, middle, right of x)
             * @enum {string}
             */
            align?: "l" | "m" | "r";
            /** @description Wrap width, 0 = no wrapping */
            width?: number;
            /** @description Clip height, 0 = none */
            height?: number;
            /** @description Line spacing factor (1) */
            line?: number;
            /** @description Outline colour (black) */
            outlinecolor?: string;
            /** @description Outline width (0 = none) */
            outlinewidth?: number;
            /** @description Outline blur (0) */
            outlineblur?: number;
            /** @description Bold */
            bold?: boolean;
            /** @description Italic */
            italics?: boolean;
            /** @description Underline */
            underline?: boolean;
            /** @description Font weight 100..900 */
            weight?: number;
            /** @description Blend mode: multiply, screen, overlay, darken, lighten, … */
            blend?: string;
            /** @description true hides the text */
            skip?: boolean;
            /** @description Render this Unix time (seconds) as a date; 0 = no date */
            unix?: number;
            /** @description Render the creation time of this Discord snowflake as a date; 0 = no date */
            snowflake?: string;
            /** @description .NET date format, invariant culture, UTC (yyyy-MM-dd HH:mm): a standard format (d D f F g G t T M Y s u o r) or custom specifiers (yyyy MMMM MMM MM dddd ddd dd d HH hh mm ss fff tt zzz, '...' literals) */
            format?: string;
        } & {
            [key: string]: unknown;
        };
        CustomGlobal: {
            /** @description Default size */
            textSize?: number;
            /** @description Default colour */
            textColor?: string;
            /** @description Default font */
            textFont?: string;
            /** @description Default outline width */
            textOutlineWidth?: number;
            /** @description The same, as one client spells it */
            textOutineWidth?: number;
            /** @description Default outline colour */
            textOutlineColor?: string;
            /** @description Default outline blur */
            textOutlineBlur?: number;
            /** @description Default alignment */
            textAlign?: string;
            /** @description Default x */
            textX?: number;
        } & {
            [key: string]: unknown;
        };
        CustomImage: {
            /**
             * @description png, jpg (default), webp or gif; gif and webp move when an image does (animated)
             * @enum {string}
             */
            output?: "png" | "jpg" | "jpeg" | "webp" | "gif";
            /**
             * @description The same as output
             * @enum {string}
             */
            format?: "png" | "jpg" | "jpeg" | "webp" | "gif";
            /** @description auto (default: the picture moves when the base or a layer is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames) */
            animated?: boolean | ("auto" | "true" | "false");
            /** @description Largest answer in bytes, 1024..10485760 (default 10485760): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says */
            max_bytes?: number;
            base?: components["schemas"]["CustomBase"];
            images?: components["schemas"]["CustomImageLayer"][];
            texts?: components["schemas"]["CustomText"][];
            global?: components["schemas"]["CustomGlobal"];
        } & {
            [key: string]: unknown;
        };
        PictureColours: components["schemas"]["Envelope"] & {
            /** @description The palette colour covering the most of the picture (palette[0]) */
            dominant: {
                r: number;
                g: number;
                b: number;
                /**
                 * @description Lowercase "#rrggbb"
                 * @example #5865f2
                 */
                hex: string;
                /** @example rgb(88, 101, 242) */
                rgb: string;
                /**
                 * @description The colour as the integer 0xRRGGBB (parseInt(hex, 16)): what a Discord embed's `color` field takes
                 * @example 5793266
                 */
                int: number;
                /**
                 * @description The nearest named colour by CIEDE2000 (as /color/info names a value)
                 * @example Discord Blurple
                 */
                name: string;
                /** @description The part of the picture's counted pixels (at least half opaque) nearest this colour; the palette's shares add up to 1 (to rounding) */
                share: number;
            };
            /** @description Up to 8 colours (median cut, the `quantize` package), largest share first; each is the mean of the pixels it stands for */
            palette: {
                r: number;
                g: number;
                b: number;
                /**
                 * @description Lowercase "#rrggbb"
                 * @example #5865f2
                 */
                hex: string;
                /** @example rgb(88, 101, 242) */
                rgb: string;
                /**
                 * @description The colour as the integer 0xRRGGBB (parseInt(hex, 16)): what a Discord embed's `color` field takes
                 * @example 5793266
                 */
                int: number;
                /**
                 * @description The nearest named colour by CIEDE2000 (as /color/info names a value)
                 * @example Discord Blurple
                 */
                name: string;
                /** @description The part of the picture's counted pixels (at least half opaque) nearest this colour; the palette's shares add up to 1 (to rounding) */
                share: number;
            }[];
            /** @description The mean of the counted pixels */
            average: {
                r: number;
                g: number;
                b: number;
                /**
                 * @description Lowercase "#rrggbb"
                 * @example #5865f2
                 */
                hex: string;
                /** @example rgb(88, 101, 242) */
                rgb: string;
                /**
                 * @description The colour as the integer 0xRRGGBB (parseInt(hex, 16)): what a Discord embed's `color` field takes
                 * @example 5793266
                 */
                int: number;
                /**
                 * @description The nearest named colour by CIEDE2000 (as /color/info names a value)
                 * @example Discord Blurple
                 */
                name: string;
            };
            placeholder: {
                /** @description A ThumbHash of the picture, base64: about 25 bytes that a client decodes to a blurred preview (the `thumbhash` package, thumbHashToDataURL) */
                thumbhash: string;
            };
            /** @description The text colour readable on the dominant colour */
            textColor: {
                color: "black" | "white";
                hex: "#000000" | "#ffffff";
                /** @description WCAG 2 contrast ratio of this text colour on the dominant colour (the higher of black's and white's) */
                contrast: number;
            };
            /** @description Pixels counted, of the picture decoded shrunk to fit 100×100 */
            pixels: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description About this service: its docs and the operator's addresses (no key needed) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The operator's website (INFO_WEBSITE); "" when the operator set none */
                        website: string;
                        /** @description Invitation to the operator's Discord server (INFO_DISCORD); "" when the operator set none */
                        discord: string;
                        /**
                         * Format: uri
                         * @description The interactive API reference
                         */
                        docs: string;
                        /** @description The operator's Twitter/X page (INFO_TWITTER); "" when the operator set none */
                        twitter: string;
                        /** @description The operator's Reddit page (INFO_REDDIT); "" when the operator set none */
                        reddit: string;
                        /** @description Contact address (INFO_EMAIL); "" when the operator set none */
                        email: string;
                        /** @description Where to support the operator (INFO_DONATE); "" when the operator set none */
                        donate: string;
                    };
                };
            };
            /** @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Liveness: the process answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Readiness: the store answers and the database file is the one opened */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @enum {string} */
                        status: "ready";
                        /** @description The database */
                        database: {
                            /** @description down: the store does not answer, or the SQLite file is no longer the one the server opened */
                            state: "ok" | "down";
                        };
                        /** @description The rate-limit counters */
                        counters: {
                            /** @description degraded: Redis does not answer and this instance counts alone (still ready) */
                            state: "ok" | "degraded";
                        };
                    };
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getGenHtml: {
        parameters: {
            query?: {
                /** @description The status to answer with */
                code?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `VALIDATION`: Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `TEST_ERROR`: This is a test error: /gen/html always fails, so that client authors can exercise their error handling
             *
             *     `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it
             */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Your key: name, limits, quota and credits left, expiry and usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The key's id (not the key) */
                        id: string;
                        /**
                         * Format: date-time
                         * @description When the key was created, RFC 3339 in UTC
                         */
                        created: string;
                        /** @description The key's name */
                        name: string;
                        /** @description The first characters of the key */
                        prefix: string;
                        /**
                         * Format: date-time
                         * @description The same as created
                         */
                        createdAt: string;
                        rateLimit: {
                            /** @description Units per window */
                            max: number;
                            windowSeconds: number;
                            /** @description false when the service default applies */
                            own: boolean;
                        };
                        quota: null | {
                            max: number;
                            period: "day" | "month";
                            used: number;
                            remaining: number;
                            resetsInSeconds: number;
                        };
                        /** @description Requests and cost units per endpoint group (UTC days) */
                        usage: {
                            today: {
                                [key: string]: {
                                    requests: number;
                                    units: number;
                                };
                            };
                            last30Days: {
                                [key: string]: {
                                    requests: number;
                                    units: number;
                                };
                            };
                        };
                        /** @description What signs links to pictures with no call (docs/links.md); null while the operator has links off */
                        links: null | {
                            /** @description The key's link id: the first part of every link it signs (public) */
                            id: string;
                            /** @description The key's link secret: signs links with no call (docs/links.md). Keep it as secret as the key; POST /me/links/roll replaces it */
                            secret: string;
                        };
                        /** @description Prepaid credits (docs/billing.md); null: the key is not metered by credits */
                        credits: null | {
                            /** @description Units left: a request is refused (402 CREDITS_EXHAUSTED) when they do not cover its cost */
                            remaining: number;
                            refill: null | {
                                /** @description What is left is raised to this at each refill (never lowered) */
                                amount: number;
                                period: "day" | "month";
                                /**
                                 * Format: date-time
                                 * @description When the next refill is due (the next UTC day or month)
                                 */
                                nextAt: string;
                            };
                        };
                        /** @description When the key stops working (401 AUTH_KEY_EXPIRED); null: never */
                        expiresAt: null | string;
                    };
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postMeLinksRoll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Replace your key's link secret: every link signed with the old one stops working */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        links: {
                            /** @description The key's link id: the first part of every link it signs (public) */
                            id: string;
                            /** @description The key's link secret: signs links with no call (docs/links.md). Keep it as secret as the key; POST /me/links/roll replaces it */
                            secret: string;
                        };
                    };
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `LINKS_NOT_CONFIGURED`: Signed links are off: with DATABASE_URL every instance must share LINK_SIGNING_KEYS; the operator sets it (docs/links.md)
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postLinks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description The keyed request's path and query, as you would send it: "/gen/welcome?username=Ana&avatar=https%3A%2F%2F…"
                     * @example /gen/welcome?username=Ana&members=Member%20%2342
                     */
                    path: string;
                    /** @description The JSON body of a route that takes one (/gen/custom): the link carries it as ?body= base64url of its JSON text */
                    body?: {
                        [key: string]: unknown;
                    };
                    /** @description Seconds until the link stops working (410); absent: never */
                    expires_in?: number;
                };
            };
        };
        responses: {
            /** @description Mint a signed link to a picture, fetchable with no header (for chat embeds) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The link: absolute, under PUBLIC_URL, at most 512 characters; no header needed to fetch it */
                        url: string;
                        /** @description When the link stops working (RFC 3339, UTC); null: never */
                        expires_at: null | string;
                    };
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `LINK_MALFORMED`: This is not a link of this server: a link reads /l/{linkId}/{expires}/{signature}{target}, as POST /links or the signer of docs/links.md makes it
             *
             *     `LINK_BODY_INVALID`: The link's body parameter must be base64url (no padding) of a JSON text in UTF-8
             *
             *     `LINK_NOT_LINKABLE`: This path cannot be linked: only the picture routes can (/gen/{template}, /gen/custom, and the image conversions with url=)
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `UNKNOWN_LOCALE`: Unknown locale: use one of Discord's locales (en-US, fr, ja, pt-BR, …) or ar; the message lists them
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `GEN_LIMIT_EXCEEDED`: The image description exceeds a limit of /gen/custom
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINK_INVALID`: The link's signature does not match: it was changed after it was signed, or signed with a secret that was rolled since
             *
             *     `LINK_KEY_REFUSED`: The key that made this link is disabled, revoked or expired: ask the link's owner for a new link
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINK_NOT_FOUND`: This minted link is not stored here: mint it again with POST /links
             *
             *     `TEMPLATE_NOT_FOUND`: No such template: see /list/templates
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `LINK_EXPIRED`: The link has expired: ask its owner for a new one */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `LINK_TOO_LONG`: The link is longer than this server serves: mint it with POST /links, which stores long requests and answers a short link */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `LINKS_NOT_CONFIGURED`: Signed links are off: with DATABASE_URL every instance must share LINK_SIGNING_KEYS; the operator sets it (docs/links.md)
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getL: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description {linkId}/{expires}/{signature}{target} */
                "*": string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes (image/png, image/jpeg, image/webp, image/gif) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                    "image/gif": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `LINK_MALFORMED`: This is not a link of this server: a link reads /l/{linkId}/{expires}/{signature}{target}, as POST /links or the signer of docs/links.md makes it
             *
             *     `LINK_BODY_INVALID`: The link's body parameter must be base64url (no padding) of a JSON text in UTF-8
             *
             *     `LINK_NOT_LINKABLE`: This path cannot be linked: only the picture routes can (/gen/{template}, /gen/custom, and the image conversions with url=)
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `UNKNOWN_LOCALE`: Unknown locale: use one of Discord's locales (en-US, fr, ja, pt-BR, …) or ar; the message lists them
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `GEN_LIMIT_EXCEEDED`: The image description exceeds a limit of /gen/custom
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINK_INVALID`: The link's signature does not match: it was changed after it was signed, or signed with a secret that was rolled since
             *
             *     `LINK_KEY_REFUSED`: The key that made this link is disabled, revoked or expired: ask the link's owner for a new link
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINK_NOT_FOUND`: This minted link is not stored here: mint it again with POST /links
             *
             *     `TEMPLATE_NOT_FOUND`: No such template: see /list/templates
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `LINK_EXPIRED`: The link has expired: ask its owner for a new one */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `LINK_TOO_LONG`: The link is longer than this server serves: mint it with POST /links, which stores long requests and answers a short link */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINKS_NOT_CONFIGURED`: Signed links are off: with DATABASE_URL every instance must share LINK_SIGNING_KEYS; the operator sets it (docs/links.md)
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    headL: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description {linkId}/{expires}/{signature}{target} */
                "*": string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes (image/png, image/jpeg, image/webp, image/gif) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                    "image/gif": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `LINK_MALFORMED`: This is not a link of this server: a link reads /l/{linkId}/{expires}/{signature}{target}, as POST /links or the signer of docs/links.md makes it
             *
             *     `LINK_BODY_INVALID`: The link's body parameter must be base64url (no padding) of a JSON text in UTF-8
             *
             *     `LINK_NOT_LINKABLE`: This path cannot be linked: only the picture routes can (/gen/{template}, /gen/custom, and the image conversions with url=)
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `UNKNOWN_LOCALE`: Unknown locale: use one of Discord's locales (en-US, fr, ja, pt-BR, …) or ar; the message lists them
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `GEN_LIMIT_EXCEEDED`: The image description exceeds a limit of /gen/custom
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINK_INVALID`: The link's signature does not match: it was changed after it was signed, or signed with a secret that was rolled since
             *
             *     `LINK_KEY_REFUSED`: The key that made this link is disabled, revoked or expired: ask the link's owner for a new link
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINK_NOT_FOUND`: This minted link is not stored here: mint it again with POST /links
             *
             *     `TEMPLATE_NOT_FOUND`: No such template: see /list/templates
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `LINK_EXPIRED`: The link has expired: ask its owner for a new one */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `LINK_TOO_LONG`: The link is longer than this server serves: mint it with POST /links, which stores long requests and answers a short link */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `LINKS_NOT_CONFIGURED`: Signed links are off: with DATABASE_URL every instance must share LINK_SIGNING_KEYS; the operator sets it (docs/links.md)
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getColorRandom: {
        parameters: {
            query?: {
                /** @description Any 1..100 characters: the same seed always gives the same colour (FNV-1a + mulberry32, see docs/colors.md) */
                seed?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A random colour, uniform over the sRGB cube, with its name and everything about it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Colour"];
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `COLOR_SEED_INVALID`: Query parameter "seed" must be 1 to 100 printable characters, for example seed=my-palette-1
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getColorInfo: {
        parameters: {
            query?: {
                /** @description A colour name: case, spaces, hyphens, underscores and accents are ignored ("Dark Slate Gray", "dark-slate-grey") */
                name?: string;
                /**
                 * @description 3, 4, 6 or 8 hex digits, any case, with or without "#" (send it as %23: an unencoded # never reaches the server)
                 * @example 00ff00
                 */
                hex?: string;
                /**
                 * @description "r,g,b" (spaces allowed) or "rgb(r, g, b)", each 0..255
                 * @example 0,255,0
                 */
                rgb?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Everything about a colour given by exactly one of name, hex or rgb */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Colour"];
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `COLOR_QUERY_MISSING`: Send one of the query parameters name, hex or rgb, for example /color/info?hex=00ff00
             *
             *     `COLOR_QUERY_AMBIGUOUS`: Send exactly one of the query parameters name, hex and rgb
             *
             *     `COLOR_HEX_EMPTY`: Query parameter "hex" is empty. If you sent hex=#00ff00, the # started the URL fragment and never reached the server: drop the # (hex=00ff00) or percent-encode it (hex=%2300ff00)
             *
             *     `COLOR_HEX_INVALID`: Query parameter "hex" must be 3, 4, 6 or 8 hex digits, for example hex=00ff00
             *
             *     `COLOR_RGB_INVALID`: Query parameter "rgb" must be three numbers 0..255 separated by commas, for example rgb=0,255,0
             *
             *     `COLOR_NAME_INVALID`: Query parameter "name" must be a colour name, for example name=darkslategray
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `COLOR_NAME_NOT_FOUND`: No colour has this name: see suggestions for close spellings, or look the colour up by hex or rgb */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSfwGifImageType: {
        parameters: {
            query?: {
                /** @description Answer a list of this many distinct gifs in `gifs` */
                amount?: number;
                /**
                 * @description Ids not to answer, comma-separated (at most 100)
                 * @example 42,43
                 */
                exclude?: string;
                /** @description Do not answer any of the last N gifs this key was shown in this category (picks asked with norepeat are remembered for 24 hours) */
                norepeat?: number;
                /** @description `webp`: `file` is an animated WebP made from the GIF (/files/gifs/`<sha256>`.webp), except for external gifs and gifs of more than 40 million pixels over all frames, answered as they are; `bytes` stays the GIF's size */
                format?: "gif" | "webp";
            };
            header?: never;
            path: {
                /**
                 * @description The category
                 * @example hug
                 */
                imageType: "baka" | "bite" | "blush" | "cry" | "dance" | "feed" | "fluff" | "grab" | "handhold" | "highfive" | "hug" | "kiss" | "laugh" | "lick" | "neko" | "pat" | "poke" | "punch" | "shrug" | "slap" | "smug" | "stare" | "tickle" | "wag" | "wasted" | "wave" | "wink";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A random safe-for-work gif of a category */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GifAnswer"];
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `GIF_UNKNOWN_TYPE`: Unknown gif type: see validTypes for the types this endpoint answers
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `GIF_CATEGORY_EMPTY`: This gif category has no gifs yet: the operator can add some with "npm run cli -- gifs import `<folder>`"
             *
             *     `GIF_ALL_EXCLUDED`: Every gif of this category is in exclude: exclude fewer ids
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSfwGif: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gif types, with how many gifs each holds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GifTypes"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    postSfwGifIdReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The gif's id, as GET /sfw/gif/{imageType} answered it
                 * @example 42
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description What is wrong with it */
                    reason: "not_sfw" | "wrong_category" | "broken" | "duplicate" | "other";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GifReportAnswer"];
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `GIF_NOT_FOUND`: No gif has this id: ids come from GET /sfw/gif/{imageType} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getFilesGifsFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The hash then the format: `<sha256>.gif` or `<sha256>.webp`
                 * @example 3f5a….gif
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes (image/gif, image/webp) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": string;
                    "image/webp": string;
                };
            };
            /** @description `VALIDATION`: Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `GIF_FILE_NOT_FOUND`: No such gif file: gif URLs come from GET /sfw/gif/{imageType} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `RANGE_NOT_SATISFIABLE`: The requested byte range lies outside the file: see Content-Range for its size */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `WORK_BUSY`: Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    headFilesGifsFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The hash then the format: `<sha256>.gif` or `<sha256>.webp`
                 * @example 3f5a….gif
                 */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes (image/gif, image/webp) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/gif": string;
                    "image/webp": string;
                };
            };
            /** @description `VALIDATION`: Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `GIF_FILE_NOT_FOUND`: No such gif file: gif URLs come from GET /sfw/gif/{imageType} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `RANGE_NOT_SATISFIABLE`: The requested byte range lies outside the file: see Content-Range for its size */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `WORK_BUSY`: Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertHtmlMarkdownViaGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /convert/html-markdown` (`convertHtmlMarkdown`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description Convert HTML to GitHub-flavoured Markdown */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The GitHub-flavoured Markdown */
                        markdown: string;
                        /** @description The same Markdown (the C# client reads this field) */
                        content: string;
                    };
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `TEXT_INPUT_MISSING`: Nothing to convert: send the text as the raw body, as a JSON string, or as JSON {"html": "..."} / {"markdown": "..."} (or {"body": "..."})
             *
             *     `TEXT_INPUT_NOT_STRING`: The text to convert must be a JSON string
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `TEXT_OUTPUT_TOO_LARGE`: The converted text would be larger than this server answers for the input: send less text or less nesting
             *
             *     `TEXT_BUDGET_EXCEEDED`: The text is longer than one request converts: split it into several requests
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `WORK_BUSY`: Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertHtmlMarkdown: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The HTML: as the raw body, a JSON string, JSON {"html": "..."} or JSON {"body": "..."} */
        requestBody: {
            content: {
                "application/json": string | ({
                    /** @description The HTML to convert (a string) */
                    html?: unknown;
                    /** @description The HTML; used when "html" is absent (Rust client) to convert (a string) */
                    body?: unknown;
                } & {
                    [key: string]: unknown;
                });
            };
        };
        responses: {
            /** @description Convert HTML to GitHub-flavoured Markdown */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The GitHub-flavoured Markdown */
                        markdown: string;
                        /** @description The same Markdown (the C# client reads this field) */
                        content: string;
                    };
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `TEXT_INPUT_MISSING`: Nothing to convert: send the text as the raw body, as a JSON string, or as JSON {"html": "..."} / {"markdown": "..."} (or {"body": "..."})
             *
             *     `TEXT_INPUT_NOT_STRING`: The text to convert must be a JSON string
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `TEXT_OUTPUT_TOO_LARGE`: The converted text would be larger than this server answers for the input: send less text or less nesting
             *
             *     `TEXT_BUDGET_EXCEEDED`: The text is longer than one request converts: split it into several requests
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `WORK_BUSY`: Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertMarkdownHtmlViaGet: {
        parameters: {
            query?: {
                /** @description Soft line breaks become `<br />` (chat-style Markdown). Default false */
                breaks?: boolean;
                /** @description Headings get an id from their text as GitHub computes it ("Hello World" → "hello-world", repeats get -1, -2). Default false */
                headingIds?: boolean;
                /** @description Put before every heading id, e.g. "user-content-" as GitHub does. Default "" */
                headingIdPrefix?: string;
                /** @description GFM extended autolinks: bare URLs, www. addresses and e-mail addresses become links. Default false (CommonMark leaves them as text) */
                autolinks?: boolean;
                /** @description Pass raw HTML in the Markdown through unescaped. The answer may then carry script: only for HTML you trust. Default false (raw HTML is escaped) */
                unsafe?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /convert/markdown-html` (`convertMarkdownHtml`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description Convert Markdown (CommonMark + GFM) to HTML, safe by default */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The HTML fragment */
                        html: string;
                        /** @description The same HTML (the C# client reads this field) */
                        content: string;
                    };
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `TEXT_INPUT_MISSING`: Nothing to convert: send the text as the raw body, as a JSON string, or as JSON {"html": "..."} / {"markdown": "..."} (or {"body": "..."})
             *
             *     `TEXT_INPUT_NOT_STRING`: The text to convert must be a JSON string
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `TEXT_OUTPUT_TOO_LARGE`: The converted text would be larger than this server answers for the input: send less text or less nesting
             *
             *     `TEXT_BUDGET_EXCEEDED`: The text is longer than one request converts: split it into several requests
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `WORK_BUSY`: Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertMarkdownHtml: {
        parameters: {
            query?: {
                /** @description Soft line breaks become `<br />` (chat-style Markdown). Default false */
                breaks?: boolean;
                /** @description Headings get an id from their text as GitHub computes it ("Hello World" → "hello-world", repeats get -1, -2). Default false */
                headingIds?: boolean;
                /** @description Put before every heading id, e.g. "user-content-" as GitHub does. Default "" */
                headingIdPrefix?: string;
                /** @description GFM extended autolinks: bare URLs, www. addresses and e-mail addresses become links. Default false (CommonMark leaves them as text) */
                autolinks?: boolean;
                /** @description Pass raw HTML in the Markdown through unescaped. The answer may then carry script: only for HTML you trust. Default false (raw HTML is escaped) */
                unsafe?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The Markdown: as the raw body, a JSON string, JSON {"markdown": "..."} or JSON {"body": "..."}; options in the query or the JSON object */
        requestBody: {
            content: {
                "application/json": string | ({
                    /** @description The Markdown to convert (a string) */
                    markdown?: unknown;
                    /** @description The Markdown; used when "markdown" is absent (Rust client) to convert (a string) */
                    body?: unknown;
                    /** @description Soft line breaks become `<br />` (chat-style Markdown). Default false */
                    breaks?: boolean;
                    /** @description Headings get an id from their text as GitHub computes it ("Hello World" → "hello-world", repeats get -1, -2). Default false */
                    headingIds?: boolean;
                    /** @description Put before every heading id, e.g. "user-content-" as GitHub does. Default "" */
                    headingIdPrefix?: string;
                    /** @description GFM extended autolinks: bare URLs, www. addresses and e-mail addresses become links. Default false (CommonMark leaves them as text) */
                    autolinks?: boolean;
                    /** @description Pass raw HTML in the Markdown through unescaped. The answer may then carry script: only for HTML you trust. Default false (raw HTML is escaped) */
                    unsafe?: boolean;
                } & {
                    [key: string]: unknown;
                });
            };
        };
        responses: {
            /** @description Convert Markdown (CommonMark + GFM) to HTML, safe by default */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        /** @description The HTML fragment */
                        html: string;
                        /** @description The same HTML (the C# client reads this field) */
                        content: string;
                    };
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `TEXT_INPUT_MISSING`: Nothing to convert: send the text as the raw body, as a JSON string, or as JSON {"html": "..."} / {"markdown": "..."} (or {"body": "..."})
             *
             *     `TEXT_INPUT_NOT_STRING`: The text to convert must be a JSON string
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `TEXT_OUTPUT_TOO_LARGE`: The converted text would be larger than this server answers for the input: send less text or less nesting
             *
             *     `TEXT_BUDGET_EXCEEDED`: The text is longer than one request converts: split it into several requests
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `WORK_BUSY`: Too many heavy requests are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    genTemplateViaGet: {
        parameters: {
            query?: {
                /** @description png, jpg, webp or gif (each template has its default: png); gif and webp move when an image does (animated) */
                output?: "png" | "jpg" | "jpeg" | "webp" | "gif";
                /** @description The same as output */
                format?: "png" | "jpg" | "jpeg" | "webp" | "gif";
                /** @description auto (default: the picture moves when an avatar, banner or icon is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames) */
                animated?: "auto" | "true" | "false";
                /** @description Largest answer in bytes, 1024..10485760 (default 10485760): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says */
                max_bytes?: string | number;
                /** @description (leaderboard) true (default): numbers in the locale's short form (1.2K, 1,2 k, 1234 and 1.2万); false: in full (1,234). Default: true */
                abbreviate?: string;
                /** @description profile: Accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the border, the strip without a banner, the bar (default #5865f2); nowplaying: Accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the label, the bar and the tint (default: the album art's dominant colour) */
                accent?: string;
                /** @description (profile) Second accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the accent becomes a gradient to it (default: the accent, deepened) */
                accent_end?: string;
                /** @description (nowplaying) URL of the album art (its dominant colour tints the card when no accent is given) */
                album_art?: string;
                /** @description (nowplaying) The artist */
                artist?: string;
                /** @description welcome: URL of the avatar image (a letter on a disc when absent); goodbye: URL of the avatar image (a letter on a disc when absent); rank: URL of the avatar image; quote: URL of the author's avatar image; profile: URL of the avatar image (a letter on a disc when absent) */
                avatar?: string;
                /** @description (profile) round or square (rounded corners). Default: round */
                avatar_shape?: "round" | "square";
                /** @description welcome: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"), under the banner (default #23272a); goodbye: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"), under the banner (default #23272a); rank: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #23272a); quote: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #1e1f22); leaderboard: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #1e1f22); profile: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #111214) */
                background?: string;
                /** @description (profile) Up to 12 badges, drawn in order from the name: image URLs or names from /list/icons, separated by commas (a query parameter) or a JSON array of strings (a body) */
                badges?: string;
                /** @description welcome: A name from /list/banners or an image URL, the background picture; goodbye: A name from /list/banners or an image URL, the background picture; rank: A name from /list/banners or an image URL behind the card; leaderboard: A name from /list/banners or an image URL behind the card; profile: A name from /list/banners or an image URL, the background picture */
                banner?: "space" | "love" | "purplewave" | "mountain" | "wave" | "sunset" | "rainbow" | "swamp" | "aurora" | "grid" | (string & {});
                /** @description (profile) Blur of the banner in pixels, 0..40. Default: 0 */
                banner_blur?: string | number;
                /** @description (profile) Brightness of the banner in percent, 0..100 (lower is dimmer). Default: 100 */
                banner_brightness?: string | number;
                /** @description (profile) top (the banner above the names, default) or full (behind the whole card, under a shaded panel). Default: top */
                banner_style?: "top" | "full";
                /** @description (leaderboard) The highlighted row's colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: #5865f2 */
                color_accent?: string;
                /** @description rank: Progress bar colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #5865f2); profile: Progress bar colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") */
                color_bar?: string;
                /** @description (welcome, goodbye) Colour of the members line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: #c8ccd0 */
                color_members?: string;
                /** @description (rank, quote, leaderboard, profile) Text colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: white */
                color_text?: string;
                /** @description (welcome, goodbye) Colour of the username (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: white */
                color_username?: string;
                /** @description welcome: Colour of the "WELCOME" line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default white); goodbye: Colour of the "GOODBYE" line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #ff8a80) */
                color_welcome?: string;
                /** @description (profile) The avatar's decoration frame, drawn over it: an image URL (Discord's avatar decorations) or a name from /list/icons */
                decoration?: string;
                /** @description (profile) The name shown large (the username when absent); long names shrink, then end in "…" */
                display_name?: string;
                /** @description (nowplaying) The track's length: seconds (215) or a clock (3:35); 0 or absent: unknown (a live stream). Default: 0 */
                duration?: string;
                /** @description (nowplaying) Time played: seconds (95) or a clock (1:35). Default: 0 */
                elapsed?: string;
                /** @description welcome: A name from /list/fonts (default Sans Serif); goodbye: A name from /list/fonts (default Sans Serif); rank: A name from /list/fonts (default Sans Serif); quote: A name from /list/fonts (default Noto Serif); leaderboard: A name from /list/fonts (default Sans Serif); profile: A name from /list/fonts (default Sans Serif); nowplaying: A name from /list/fonts (default Sans Serif) */
                font?: string;
                /** @description (leaderboard) The current member: a player's id, username or rank; that row is drawn in the accent colour */
                highlight?: string;
                /** @description (welcome, goodbye) A name from /list/icons or an image URL, drawn in the top right corner */
                icon?: "star" | "heart" | "moon" | "sun" | "crown" | "shield" | "bolt" | "leaf" | "flame" | "diamond" | "paw" | "music" | "cat" | "neko" | "nyancat" | "dog" | "dragon" | "senko" | "pepe" | "shrek" | "pikachu" | "chika" | (string & {});
                /** @description (leaderboard) A name from /list/icons or an image URL, the header's round picture (a server icon) */
                image?: string;
                /** @description (leaderboard) The label of players' value (e.g. "messages"), at most 40 characters; a player's own label wins */
                label?: string;
                /** @description (rank, profile) Current level. Default: 1 */
                level?: string | number;
                /** @description The language of the fixed labels, numbers and dates: a locale as Discord spells it (an interaction's `locale`), or ar (right to left: the card is mirrored); en, es, pt, sv, zh, zh-Hant, nb and regional tags such as fr-CA or pt-br are read too (docs/generation.md, "Languages"). Labels the request gives itself are drawn as given. Default: en-US */
                locale?: "id" | "da" | "de" | "en-GB" | "en-US" | "es-ES" | "es-419" | "fr" | "hr" | "it" | "lt" | "hu" | "nl" | "no" | "pl" | "pt-BR" | "ro" | "fi" | "sv-SE" | "vi" | "tr" | "cs" | "el" | "bg" | "ru" | "uk" | "hi" | "th" | "zh-CN" | "ja" | "zh-TW" | "ko" | "ar" | (string & {});
                /** @description (rank, profile) XP needed for the next level. Default: 100 */
                max_xp?: string | number;
                /** @description (welcome, goodbye) The member's number, drawn as the third line in the locale ("Member #42", "Membre n° 42", "42 人目のメンバー") when `members` is not given */
                member_count?: string | number;
                /** @description (profile) The date the member joined: 2021-03-14, Unix time, or a Discord id (the date it was made) */
                member_since?: string;
                /** @description (welcome, goodbye) Third line, free text, e.g. "Member #42" */
                members?: string;
                /** @description (nowplaying) The next track's title, on the queue line */
                next?: string;
                /** @description (leaderboard) The page drawn, from 1 to the page count. Default: 1 */
                page?: string | number;
                /** @description (leaderboard) Players a page draws, 1 to 20. Default: 10 */
                per_page?: string | number;
                /** @description (leaderboard) The players, 1 to 100: a JSON array (a JSON value in a body, or JSON text in the query string) of objects with username and/or display_name (at most 100 characters, Discord emoji markup drawn), avatar (an image URL), level, xp, value with its label (any score, shown instead of the XP), rank (default: the place in the list; players are drawn by rank) and id; keys in any case (displayName works) */
                players?: string;
                /** @description (nowplaying) Tracks in the queue, on the queue line (0..1000000). Default: 0 */
                queue?: string | number;
                /** @description (rank, profile) Position on the leaderboard. Default: 1 */
                rank?: string | number;
                /** @description (profile) large (800 wide, 300 to 450 high as the subtitle and the rank block need; default) or small (600 wide, 225 to 338 high). Default: large */
                size?: "large" | "small";
                /** @description rank: The member's presence as a coloured ring round the avatar, in Discord's colours: online, idle, dnd, offline, invisible, streaming; none (default) draws the white ring (default none); profile: Presence mark at the avatar's corner, in Discord's colours and shapes: online, idle, dnd, offline (or invisible), streaming; none (default) draws none (default none) */
                status?: "none" | "online" | "idle" | "dnd" | "offline" | "invisible" | "streaming";
                /** @description leaderboard: The line under the title (with the page count when there are several pages); profile: A line or two under the names (a custom status, a bio) */
                subtitle?: string;
                /** @description welcome: The title line instead of "WELCOME" (or its word in the locale) (default WELCOME); goodbye: The title line instead of "GOODBYE" (or its word in the locale) (default GOODBYE); quote: The quoted message; wraps, and shrinks when long (default …) */
                text?: string;
                /** @description (nowplaying) dark (default) or light. Default: dark */
                theme?: "dark" | "light";
                /** @description leaderboard: The header's title (default: "Leaderboard" in the locale) (default Leaderboard); nowplaying: The track's title (default Unknown title) */
                title?: string;
                /** @description welcome: The member's name; long names shrink, then end in "…" (default Someone); goodbye: The member's name; long names shrink, then end in "…" (default Someone); rank: The member's name (default Someone); quote: Who said it (default Someone); profile: The member's name (default Someone) */
                username?: string;
                /** @description (rank, profile) XP within the current level. Default: 0 */
                xp?: string | number;
            };
            header?: never;
            path: {
                /** @description A name from /list/templates */
                template: "welcome" | "goodbye" | "rank" | "quote" | "leaderboard" | "profile" | "nowplaying";
            };
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /gen/{template}` (`genTemplate`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description The image bytes (image/png, image/jpeg, image/webp, image/gif) */
            200: {
                headers: {
                    /** @description `miss`: this request drew the picture; `hit`: served from the result cache or from a drawing another request started (costs 1 unit) */
                    "X-Cache"?: "hit" | "miss";
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                    "image/gif": string;
                };
            };
            /** @description Not Modified: `If-None-Match` named this picture's `ETag` (costs 1 unit) */
            304: {
                headers: {
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `UNKNOWN_LOCALE`: Unknown locale: use one of Discord's locales (en-US, fr, ja, pt-BR, …) or ar; the message lists them
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `TEMPLATE_NOT_FOUND`: No such template: see /list/templates */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    genTemplate: {
        parameters: {
            query?: {
                /** @description png, jpg, webp or gif (each template has its default: png); gif and webp move when an image does (animated) */
                output?: "png" | "jpg" | "jpeg" | "webp" | "gif";
                /** @description The same as output */
                format?: "png" | "jpg" | "jpeg" | "webp" | "gif";
                /** @description auto (default: the picture moves when an avatar, banner or icon is an animated GIF or WebP and output is gif or webp), true (the same; refused for png and jpg), false (a still: the first frames) */
                animated?: "auto" | "true" | "false";
                /** @description Largest answer in bytes, 1024..10485760 (default 10485760): a larger picture gets fewer colours (or a lower quality), then fewer frames, then a smaller scale, then becomes a still, as the X-Image-Reduced header says */
                max_bytes?: string | number;
                /** @description (leaderboard) true (default): numbers in the locale's short form (1.2K, 1,2 k, 1234 and 1.2万); false: in full (1,234). Default: true */
                abbreviate?: string;
                /** @description profile: Accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the border, the strip without a banner, the bar (default #5865f2); nowplaying: Accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the label, the bar and the tint (default: the album art's dominant colour) */
                accent?: string;
                /** @description (profile) Second accent colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"): the accent becomes a gradient to it (default: the accent, deepened) */
                accent_end?: string;
                /** @description (nowplaying) URL of the album art (its dominant colour tints the card when no accent is given) */
                album_art?: string;
                /** @description (nowplaying) The artist */
                artist?: string;
                /** @description welcome: URL of the avatar image (a letter on a disc when absent); goodbye: URL of the avatar image (a letter on a disc when absent); rank: URL of the avatar image; quote: URL of the author's avatar image; profile: URL of the avatar image (a letter on a disc when absent) */
                avatar?: string;
                /** @description (profile) round or square (rounded corners). Default: round */
                avatar_shape?: "round" | "square";
                /** @description welcome: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"), under the banner (default #23272a); goodbye: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"), under the banner (default #23272a); rank: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #23272a); quote: Background colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #1e1f22); leaderboard: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #1e1f22); profile: Card colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #111214) */
                background?: string;
                /** @description (profile) Up to 12 badges, drawn in order from the name: image URLs or names from /list/icons, separated by commas (a query parameter) or a JSON array of strings (a body) */
                badges?: string;
                /** @description welcome: A name from /list/banners or an image URL, the background picture; goodbye: A name from /list/banners or an image URL, the background picture; rank: A name from /list/banners or an image URL behind the card; leaderboard: A name from /list/banners or an image URL behind the card; profile: A name from /list/banners or an image URL, the background picture */
                banner?: "space" | "love" | "purplewave" | "mountain" | "wave" | "sunset" | "rainbow" | "swamp" | "aurora" | "grid" | (string & {});
                /** @description (profile) Blur of the banner in pixels, 0..40. Default: 0 */
                banner_blur?: string | number;
                /** @description (profile) Brightness of the banner in percent, 0..100 (lower is dimmer). Default: 100 */
                banner_brightness?: string | number;
                /** @description (profile) top (the banner above the names, default) or full (behind the whole card, under a shaded panel). Default: top */
                banner_style?: "top" | "full";
                /** @description (leaderboard) The highlighted row's colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: #5865f2 */
                color_accent?: string;
                /** @description rank: Progress bar colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #5865f2); profile: Progress bar colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") */
                color_bar?: string;
                /** @description (welcome, goodbye) Colour of the members line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: #c8ccd0 */
                color_members?: string;
                /** @description (rank, quote, leaderboard, profile) Text colour (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: white */
                color_text?: string;
                /** @description (welcome, goodbye) Colour of the username (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"). Default: white */
                color_username?: string;
                /** @description welcome: Colour of the "WELCOME" line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default white); goodbye: Colour of the "GOODBYE" line (a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a") (default #ff8a80) */
                color_welcome?: string;
                /** @description (profile) The avatar's decoration frame, drawn over it: an image URL (Discord's avatar decorations) or a name from /list/icons */
                decoration?: string;
                /** @description (profile) The name shown large (the username when absent); long names shrink, then end in "…" */
                display_name?: string;
                /** @description (nowplaying) The track's length: seconds (215) or a clock (3:35); 0 or absent: unknown (a live stream). Default: 0 */
                duration?: string;
                /** @description (nowplaying) Time played: seconds (95) or a clock (1:35). Default: 0 */
                elapsed?: string;
                /** @description welcome: A name from /list/fonts (default Sans Serif); goodbye: A name from /list/fonts (default Sans Serif); rank: A name from /list/fonts (default Sans Serif); quote: A name from /list/fonts (default Noto Serif); leaderboard: A name from /list/fonts (default Sans Serif); profile: A name from /list/fonts (default Sans Serif); nowplaying: A name from /list/fonts (default Sans Serif) */
                font?: string;
                /** @description (leaderboard) The current member: a player's id, username or rank; that row is drawn in the accent colour */
                highlight?: string;
                /** @description (welcome, goodbye) A name from /list/icons or an image URL, drawn in the top right corner */
                icon?: "star" | "heart" | "moon" | "sun" | "crown" | "shield" | "bolt" | "leaf" | "flame" | "diamond" | "paw" | "music" | "cat" | "neko" | "nyancat" | "dog" | "dragon" | "senko" | "pepe" | "shrek" | "pikachu" | "chika" | (string & {});
                /** @description (leaderboard) A name from /list/icons or an image URL, the header's round picture (a server icon) */
                image?: string;
                /** @description (leaderboard) The label of players' value (e.g. "messages"), at most 40 characters; a player's own label wins */
                label?: string;
                /** @description (rank, profile) Current level. Default: 1 */
                level?: string | number;
                /** @description The language of the fixed labels, numbers and dates: a locale as Discord spells it (an interaction's `locale`), or ar (right to left: the card is mirrored); en, es, pt, sv, zh, zh-Hant, nb and regional tags such as fr-CA or pt-br are read too (docs/generation.md, "Languages"). Labels the request gives itself are drawn as given. Default: en-US */
                locale?: "id" | "da" | "de" | "en-GB" | "en-US" | "es-ES" | "es-419" | "fr" | "hr" | "it" | "lt" | "hu" | "nl" | "no" | "pl" | "pt-BR" | "ro" | "fi" | "sv-SE" | "vi" | "tr" | "cs" | "el" | "bg" | "ru" | "uk" | "hi" | "th" | "zh-CN" | "ja" | "zh-TW" | "ko" | "ar" | (string & {});
                /** @description (rank, profile) XP needed for the next level. Default: 100 */
                max_xp?: string | number;
                /** @description (welcome, goodbye) The member's number, drawn as the third line in the locale ("Member #42", "Membre n° 42", "42 人目のメンバー") when `members` is not given */
                member_count?: string | number;
                /** @description (profile) The date the member joined: 2021-03-14, Unix time, or a Discord id (the date it was made) */
                member_since?: string;
                /** @description (welcome, goodbye) Third line, free text, e.g. "Member #42" */
                members?: string;
                /** @description (nowplaying) The next track's title, on the queue line */
                next?: string;
                /** @description (leaderboard) The page drawn, from 1 to the page count. Default: 1 */
                page?: string | number;
                /** @description (leaderboard) Players a page draws, 1 to 20. Default: 10 */
                per_page?: string | number;
                /** @description (leaderboard) The players, 1 to 100: a JSON array (a JSON value in a body, or JSON text in the query string) of objects with username and/or display_name (at most 100 characters, Discord emoji markup drawn), avatar (an image URL), level, xp, value with its label (any score, shown instead of the XP), rank (default: the place in the list; players are drawn by rank) and id; keys in any case (displayName works) */
                players?: string;
                /** @description (nowplaying) Tracks in the queue, on the queue line (0..1000000). Default: 0 */
                queue?: string | number;
                /** @description (rank, profile) Position on the leaderboard. Default: 1 */
                rank?: string | number;
                /** @description (profile) large (800 wide, 300 to 450 high as the subtitle and the rank block need; default) or small (600 wide, 225 to 338 high). Default: large */
                size?: "large" | "small";
                /** @description rank: The member's presence as a coloured ring round the avatar, in Discord's colours: online, idle, dnd, offline, invisible, streaming; none (default) draws the white ring (default none); profile: Presence mark at the avatar's corner, in Discord's colours and shapes: online, idle, dnd, offline (or invisible), streaming; none (default) draws none (default none) */
                status?: "none" | "online" | "idle" | "dnd" | "offline" | "invisible" | "streaming";
                /** @description leaderboard: The line under the title (with the page count when there are several pages); profile: A line or two under the names (a custom status, a bio) */
                subtitle?: string;
                /** @description welcome: The title line instead of "WELCOME" (or its word in the locale) (default WELCOME); goodbye: The title line instead of "GOODBYE" (or its word in the locale) (default GOODBYE); quote: The quoted message; wraps, and shrinks when long (default …) */
                text?: string;
                /** @description (nowplaying) dark (default) or light. Default: dark */
                theme?: "dark" | "light";
                /** @description leaderboard: The header's title (default: "Leaderboard" in the locale) (default Leaderboard); nowplaying: The track's title (default Unknown title) */
                title?: string;
                /** @description welcome: The member's name; long names shrink, then end in "…" (default Someone); goodbye: The member's name; long names shrink, then end in "…" (default Someone); rank: The member's name (default Someone); quote: Who said it (default Someone); profile: The member's name (default Someone) */
                username?: string;
                /** @description (rank, profile) XP within the current level. Default: 0 */
                xp?: string | number;
            };
            header?: never;
            path: {
                /** @description A name from /list/templates */
                template: "welcome" | "goodbye" | "rank" | "quote" | "leaderboard" | "profile" | "nowplaying";
            };
            cookie?: never;
        };
        /** @description Every field is a string, or a number where it is one (level, xp, max_bytes…); each template reads its own (see each field) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TemplateFields"];
            };
        };
        responses: {
            /** @description The image bytes (image/png, image/jpeg, image/webp, image/gif) */
            200: {
                headers: {
                    /** @description `miss`: this request drew the picture; `hit`: served from the result cache or from a drawing another request started (costs 1 unit) */
                    "X-Cache"?: "hit" | "miss";
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                    "image/gif": string;
                };
            };
            /** @description Not Modified: `If-None-Match` named this picture's `ETag` (costs 1 unit) */
            304: {
                headers: {
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `UNKNOWN_LOCALE`: Unknown locale: use one of Discord's locales (en-US, fr, ja, pt-BR, …) or ar; the message lists them
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `TEMPLATE_NOT_FOUND`: No such template: see /list/templates */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    genCustomViaGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /gen/custom` (`genCustom`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description The image bytes (image/png, image/jpeg, image/webp, image/gif) */
            200: {
                headers: {
                    /** @description `miss`: this request drew the picture; `hit`: served from the result cache or from a drawing another request started (costs 1 unit) */
                    "X-Cache"?: "hit" | "miss";
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                    "image/gif": string;
                };
            };
            /** @description Not Modified: `If-None-Match` named this picture's `ETag` (costs 1 unit) */
            304: {
                headers: {
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `GEN_LIMIT_EXCEEDED`: The image description exceeds a limit of /gen/custom
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    genCustom: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "output": "png",
                 *       "base": {
                 *         "type": "bitmap",
                 *         "width": 600,
                 *         "height": 200,
                 *         "color": "#23272a"
                 *       },
                 *       "images": [
                 *         {
                 *           "type": "circle",
                 *           "x": 30,
                 *           "y": 30,
                 *           "radius": 70,
                 *           "color": "#5865f2"
                 *         }
                 *       ],
                 *       "texts": [
                 *         {
                 *           "text": "Hello",
                 *           "x": 360,
                 *           "y": 70,
                 *           "size": 56,
                 *           "align": "m",
                 *           "color": "white"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CustomImage"];
            };
        };
        responses: {
            /** @description The image bytes (image/png, image/jpeg, image/webp, image/gif) */
            200: {
                headers: {
                    /** @description `miss`: this request drew the picture; `hit`: served from the result cache or from a drawing another request started (costs 1 unit) */
                    "X-Cache"?: "hit" | "miss";
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/jpeg": string;
                    "image/webp": string;
                    "image/gif": string;
                };
            };
            /** @description Not Modified: `If-None-Match` named this picture's `ETag` (costs 1 unit) */
            304: {
                headers: {
                    /** @description The picture's content address, quoted; absent when the result cache is off (RESULT_CACHE_MAX_BYTES=0) */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `MALFORMED_JSON`: The request body is not valid JSON
             *
             *     `JSON_TOO_DEEP`: The JSON body nests objects and arrays too deeply: send only the fields the endpoint documents (see /docs)
             *
             *     `INVALID_UTF8`: The request body is not valid UTF-8 text
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `GEN_LIMIT_EXCEEDED`: The image description exceeds a limit of /gen/custom
             *
             *     `UNKNOWN_ASSET`: Unknown banner or icon name: use a name from /list/banners or /list/icons, or an image URL
             *
             *     `UNKNOWN_FONT`: Unknown font: use a name from /list/fonts
             *
             *     `INVALID_COLOR`: Invalid colour: use a CSS colour name, #rrggbb, "r,g,b" or "r,g,b,a"
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `BODY_TOO_LARGE`: The request body is too large
             *
             *     `GEN_BUDGET_EXCEEDED`: The picture needs more than one request's budget of image pixels: use smaller images, or draw them smaller
             *
             *     `WORK_TOO_LARGE`: The request needed more memory than one job may use and was stopped: send a smaller request
             */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getListTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The templates /gen accepts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        list: string[];
                    };
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getListBanners: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The banners /gen accepts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        list: string[];
                    };
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getListIcons: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The icons /gen accepts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        list: string[];
                    };
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getListFonts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fonts /gen accepts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Envelope"] & {
                        list: string[];
                    };
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAssetsBannersName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A name from /list/banners, optionally ending in .png */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes (image/png) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description `VALIDATION`: Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `ASSET_NOT_FOUND`: No such banner, icon or font: see /list/banners, /list/icons and /list/fonts */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAssetsIconsName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A name from /list/icons, optionally ending in .png */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image bytes (image/png) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description `VALIDATION`: Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `ASSET_NOT_FOUND`: No such banner, icon or font: see /list/banners, /list/icons and /list/fonts */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `RENDER_BUSY`: The server is busy drawing other images: try again in a moment
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    colorImageViaGet: {
        parameters: {
            query?: {
                /** @description Instead of a body: an http(s) URL of the picture (an avatar, an attachment), fetched by the server from a public host within REMOTE_FETCH_MAX_BYTES and REMOTE_FETCH_TIMEOUT_MS; a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /color/image` (`colorImage`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description The colours of a picture: dominant, a palette of up to 8 with their shares, the average, a ThumbHash placeholder, a readable text colour */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PictureColours"];
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    colorImage: {
        parameters: {
            query?: {
                /** @description Instead of a body: an http(s) URL of the picture (an avatar, an attachment), fetched by the server from a public host within REMOTE_FETCH_MAX_BYTES and REMOTE_FETCH_TIMEOUT_MS; a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file: the raw bytes as the body (any content type); none when the query gives `url` */
        requestBody?: {
            content: {
                "application/octet-stream": string;
                "image/*": string;
            };
        };
        responses: {
            /** @description The colours of a picture: dominant, a palette of up to 8 with their shares, the average, a ThumbHash placeholder, a readable text colour */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PictureColours"];
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertImagePngViaGet: {
        parameters: {
            query?: {
                /**
                 * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                 * @example 90
                 */
                quality?: number;
                /**
                 * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                 * @example white
                 */
                background?: string;
                /** @description Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /convert/image-png` (`convertImagePng`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description The image bytes (image/png) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `BAD_REQUEST`: Bad request
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `IMAGE_TOO_MANY_FRAMES`: The animation declares more frames than this server converts: send a shorter animation
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UPLOAD_TOO_SLOW`: The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertImagePng: {
        parameters: {
            query?: {
                /**
                 * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                 * @example 90
                 */
                quality?: number;
                /**
                 * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                 * @example white
                 */
                background?: string;
                /** @description Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file: the raw bytes as the body (any content type), or a multipart form with the file in `file`; none when the query gives `url` */
        requestBody?: {
            content: {
                "application/octet-stream": string;
                "image/*": string;
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file to convert
                     */
                    file: string;
                    /**
                     * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                     * @example 90
                     */
                    quality?: number;
                    /**
                     * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                     * @example white
                     */
                    background?: string;
                };
            };
        };
        responses: {
            /** @description The image bytes (image/png) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `BAD_REQUEST`: Bad request
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `IMAGE_TOO_MANY_FRAMES`: The animation declares more frames than this server converts: send a shorter animation
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UPLOAD_TOO_SLOW`: The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertImageJpgViaGet: {
        parameters: {
            query?: {
                /**
                 * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                 * @example 90
                 */
                quality?: number;
                /**
                 * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                 * @example white
                 */
                background?: string;
                /** @description Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /convert/image-jpg` (`convertImageJpg`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description The image bytes (image/jpeg) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `BAD_REQUEST`: Bad request
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `IMAGE_TOO_MANY_FRAMES`: The animation declares more frames than this server converts: send a shorter animation
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UPLOAD_TOO_SLOW`: The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertImageJpg: {
        parameters: {
            query?: {
                /**
                 * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                 * @example 90
                 */
                quality?: number;
                /**
                 * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                 * @example white
                 */
                background?: string;
                /** @description Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file: the raw bytes as the body (any content type), or a multipart form with the file in `file`; none when the query gives `url` */
        requestBody?: {
            content: {
                "application/octet-stream": string;
                "image/*": string;
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file to convert
                     */
                    file: string;
                    /**
                     * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                     * @example 90
                     */
                    quality?: number;
                    /**
                     * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                     * @example white
                     */
                    background?: string;
                };
            };
        };
        responses: {
            /** @description The image bytes (image/jpeg) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `BAD_REQUEST`: Bad request
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `IMAGE_TOO_MANY_FRAMES`: The animation declares more frames than this server converts: send a shorter animation
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UPLOAD_TOO_SLOW`: The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertImageWebpViaGet: {
        parameters: {
            query?: {
                /**
                 * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                 * @example 90
                 */
                quality?: number;
                /**
                 * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                 * @example white
                 */
                background?: string;
                /** @description Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description GET with a body, the compatibility path of the C# and Rust clients: the body of `POST /convert/image-webp` (`convertImageWebp`), read the same way. Described, not declared: browsers cannot send a body with GET. */
        requestBody?: {
            content: {
                "*/*"?: never;
            };
        };
        responses: {
            /** @description The image bytes (image/webp) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/webp": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `BAD_REQUEST`: Bad request
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `IMAGE_TOO_MANY_FRAMES`: The animation declares more frames than this server converts: send a shorter animation
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UPLOAD_TOO_SLOW`: The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    convertImageWebp: {
        parameters: {
            query?: {
                /**
                 * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                 * @example 90
                 */
                quality?: number;
                /**
                 * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                 * @example white
                 */
                background?: string;
                /** @description Instead of a body: an http(s) URL the server fetches the image from (a public host, at most 15 MB, within REMOTE_FETCH_TIMEOUT_MS); a request with both a body and url is refused */
                url?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The file: the raw bytes as the body (any content type), or a multipart form with the file in `file`; none when the query gives `url` */
        requestBody?: {
            content: {
                "application/octet-stream": string;
                "image/*": string;
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file to convert
                     */
                    file: string;
                    /**
                     * @description Output quality, 1 to 100 (default: JPEG and WebP 80; PNG lossless, below 100 quantises to a palette)
                     * @example 90
                     */
                    quality?: number;
                    /**
                     * @description JPEG only: the colour transparency is flattened onto, as a CSS name, rrggbb (with or without #) or r,g,b. Default white
                     * @example white
                     */
                    background?: string;
                };
            };
        };
        responses: {
            /** @description The image bytes (image/webp) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/webp": string;
                };
            };
            /**
             * @description `VALIDATION`: Invalid request
             *
             *     `BAD_CONTENT_LENGTH`: The Content-Length header does not match the body
             *
             *     `EMPTY_BODY`: The request body is empty: this endpoint needs a body
             *
             *     `BAD_REQUEST`: Bad request
             *
             *     `IMAGE_INVALID`: The image could not be decoded: the file is truncated or corrupt
             *
             *     `IMAGE_TOO_MANY_PIXELS`: The image declares more pixels than this server converts: send a smaller image
             *
             *     `IMAGE_TOO_MANY_FRAMES`: The animation declares more frames than this server converts: send a shorter animation
             *
             *     `IMAGE_BODY_AND_URL`: Send the image either as the request body or as the url query parameter, not both
             *
             *     `REMOTE_FETCH_REFUSED`: The image URL was refused: only http(s) URLs of public hosts can be fetched
             *
             *     `REMOTE_FETCH_FAILED`: The image URL could not be fetched: check that it is reachable from the internet
             *
             *     `REMOTE_FETCH_TOO_LARGE`: The image at the URL is larger than the download limit: use a smaller image
             *
             *     `REMOTE_FETCH_TIMEOUT`: The image URL took too long to answer: use a faster host
             *
             *     `REMOTE_IMAGE_INVALID`: The URL did not answer with an image this server can read (PNG, JPEG, WebP, GIF or AVIF)
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `AUTH_MISSING`: Missing Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_EMPTY`: Empty Authorization header: send your API key as "Authorization: `<key>`"
             *
             *     `AUTH_UNKNOWN_KEY`: Unknown API key: check the key, or ask the operator for a new one
             *
             *     `AUTH_KEY_DISABLED`: This API key is disabled: ask the operator to enable it again
             *
             *     `AUTH_KEY_REVOKED`: This API key has been revoked: ask the operator for a new one
             *
             *     `AUTH_KEY_EXPIRED`: This API key has expired: ask the operator to renew it
             *
             *     `AUTH_KEY_ROLLED`: This API key was replaced by a new one (rolled) and its grace period is over: use the new key
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `CREDITS_EXHAUSTED`: This key's credits do not cover this request: X-Credits-Remaining says what is left; ask the operator for more credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `UPLOAD_TOO_SLOW`: The upload arrived too slowly and was stopped: send the body at a steady rate, or a smaller file */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `BODY_TOO_LARGE`: The request body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `UNSUPPORTED_MEDIA_TYPE`: This endpoint cannot read the request body's content type
             *
             *     `IMAGE_UNSUPPORTED_FORMAT`: The body is not an image in a format this endpoint reads: send JPEG, PNG, WebP, GIF, AVIF or TIFF
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `RATE_LIMITED`: Too many requests: this key's rate limit is used up; retry after the number of seconds in Retry-After
             *
             *     `QUOTA_EXCEEDED`: This key's quota for the period is used up; retry after the number of seconds in Retry-After, or ask the operator for a larger quota
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `INTERNAL`: Internal server error: the failure has been logged; quote the request id when reporting it */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /**
             * @description `STORE_UNAVAILABLE`: The service's database does not answer right now: retry after the number of seconds in Retry-After
             *
             *     `SERVICE_UNAVAILABLE`: The service cannot answer right now (it is not ready, or a dependency it needs does not answer): try again shortly, after the seconds in Retry-After when given
             *
             *     `IMAGE_TIMEOUT`: The conversion took too long and was stopped: send a smaller image, or try again later
             *
             *     `IMAGE_BUSY`: Too many image conversions are running or waiting: retry after the number of seconds in Retry-After
             *
             *     `TIMEOUT`: The request took too long and was stopped: try again, or send a smaller request
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
