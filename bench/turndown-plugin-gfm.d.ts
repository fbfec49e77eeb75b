// turndown-plugin-gfm ships no types; the benchmark uses its one plugin.
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown'
  export function gfm (service: TurndownService): void
}
