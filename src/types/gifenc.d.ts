// The part of gifenc (MIT, no bundled types) that src/gifs/starter-art.ts uses.
declare module 'gifenc' {
  export interface GifEncoderStream {
    writeFrame (index: Uint8Array, width: number, height: number, options?: {
      palette?: number[][]
      delay?: number
      repeat?: number
      transparent?: boolean
      dispose?: number
      first?: boolean
    }): void
    finish (): void
    bytes (): Uint8Array
    bytesView (): Uint8Array
    reset (): void
  }
  export function GIFEncoder (options?: { auto?: boolean, initialCapacity?: number }): GifEncoderStream
}
