// Brand colours under the names their owners give them, with where each value comes from:
// people ask /color/info what a brand's colour is called (hex=5865f2 is Discord's Blurple,
// which the general list only approximates as "Flickering Sea"). The catalogue reads them
// after the CSS keywords and before color-name-list (src/colors/catalog.ts), so:
// - an exact value match answers the brand's name, except where a CSS keyword has the
//   same value (#ffffff stays "White", #000000 "Black");
// - every name carries the brand ("Discord Blurple"), so that no name of the general list
//   is shadowed: name=blurple is still color-name-list's Blurple (#5539cc).
// Values are lowercase #rrggbb; a test checks each palette's form and that the catalogue
// answers each value with its name.

export interface BrandPalette {
  brand: string
  /** Where the values were published by the brand itself. */
  source: string
  colors: ReadonlyArray<{ name: string, hex: string }>
}

export const BRAND_PALETTES: readonly BrandPalette[] = [
  {
    brand: 'Discord',
    source: 'Discord\'s branding guidelines, https://discord.com/branding: the palette since the 2021 rebrand',
    colors: [
      { name: 'Discord Blurple', hex: '#5865f2' },
      { name: 'Discord Green', hex: '#57f287' },
      { name: 'Discord Yellow', hex: '#fee75c' },
      { name: 'Discord Fuchsia', hex: '#eb459e' },
      { name: 'Discord Red', hex: '#ed4245' },
      { name: 'Discord White', hex: '#ffffff' },
      { name: 'Discord Black', hex: '#000000' }
    ]
  },
  {
    brand: 'Discord',
    source: 'Discord\'s branding guidelines, https://discord.com/branding, before the 2021 rebrand: the palette of 2015 to 2021, still in many bots and themes',
    colors: [
      { name: 'Discord Old Blurple', hex: '#7289da' },
      { name: 'Discord Greyple', hex: '#99aab5' },
      { name: 'Discord Dark But Not Black', hex: '#2c2f33' },
      { name: 'Discord Not Quite Black', hex: '#23272a' }
    ]
  }
]
