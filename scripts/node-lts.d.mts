export const EXTRA_NODE_VERSIONS: Record<number, string>
export function nodePackageName (platform?: string, arch?: string): string
export function installedNode (version: string): string | undefined
export function ensureNode (major: number, log?: (text: string) => void): { node: string, version: string, reason?: undefined } | { node?: undefined, version?: undefined, reason: string }
