// English (United Kingdom) (en-GB): the same words as en-US.ts (numbers and dates differ,
// and Intl writes those per locale), so its labels are en-US's rather than a copy of them.
export { labels } from './en-US.js'
