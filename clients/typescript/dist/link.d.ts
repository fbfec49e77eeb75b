/** The link pair of a key, as GET /me answers it in `links`. */
export interface LinkSecret {
    /** The key's public link id (16 characters of base64url). */
    id: string;
    /** The key's link secret ("ls_…"): keep it like the key itself. */
    secret: string;
}
/** SHA-256 (FIPS 180-4) of `data`. */
export declare function sha256(data: Uint8Array): Uint8Array;
/** HMAC-SHA256 (RFC 2104) of `message` under `key`. */
export declare function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array;
/** base64url without padding (RFC 4648 §5). */
export declare function base64url(bytes: Uint8Array): string;
/**
 * A signed link to `target` (the path and query of a keyed GET request, starting with "/",
 * exactly as it will appear in the URL), valid until `expiresAt` (Unix seconds or a Date;
 * 0, the default, never expires). `base` is the server's public URL.
 *
 *     signLink('https://api.example.com', me.links, '/gen/welcome?username=Ana', 0)
 *     // → 'https://api.example.com/l/<id>/0/<signature>/gen/welcome?username=Ana'
 *
 * For POST /gen/custom, sign customLinkTarget(body). A link stops working when its key's
 * link secret is rolled (POST /me/links/roll), is disabled or revoked, or it expires.
 */
export declare function signLink(base: string, link: LinkSecret, target: string, expiresAt?: number | Date): string;
/** The target of a link to POST /gen/custom with `body`: "/gen/custom?body=" + base64url of its JSON (UTF-8). */
export declare function customLinkTarget(body: unknown): string;
/**
 * The target of a link to a GET route: `path` and the query, each value percent-encoded
 * (encodeURIComponent; undefined values left out), in the order given.
 */
export declare function linkTarget(path: string, query?: Record<string, string | number | boolean | undefined>): string;
