// color-name 2.x ships no type declarations: the CSS Color 4 named colours as
// { name: [r, g, b] }, lowercase keys in alphabetical order.
declare module 'color-name' {
  const colors: Record<string, [number, number, number]>
  export default colors
}
