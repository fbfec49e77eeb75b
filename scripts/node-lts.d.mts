export const EXTRA_NODE_VERSIONS: Record<number, string>
export function nodePackageName (platform?: string, arch?: string): string
export function installedNode (version: string): string | undefined
export function ensureNode (major: number, log?: (text: string) => void): { node: string, version: string, reason?: undefined } | { node?: undefined, version?: undefined, reason: string }
export const NODE_END_OF_LIFE: Record<number, string>
export const RECOMMENDED_NODE_MAJOR: number
export function endOfLifeNotice (version?: string, now?: Date): string | undefined
