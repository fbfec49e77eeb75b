export function serverNodeFlags (env?: NodeJS.ProcessEnv): string[]
export function findJemalloc (): string | undefined
export function allocatorEnv (env?: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv, line: string }
