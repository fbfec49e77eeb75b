export declare const SPARE_THREADS: number
export declare function threadPoolEnv (env?: NodeJS.ProcessEnv, cwd?: string): { env: NodeJS.ProcessEnv, line: string }
