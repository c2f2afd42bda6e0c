/**
 * A table that fits a phone: from the `md` breakpoint up it is an ordinary table; below it each
 * row is a card and each cell a line under its column's name, so no column (the owner, the row's
 * buttons) is pushed out of sight and the page never scrolls sideways. A cell names its column
 * in `data-label` (shown before it by CSS, so the row's text stays what it is); the header row
 * stays for screen readers.
 */
export const stackedTable = {
  table: 'max-md:block max-md:w-full',
  head: 'max-md:sr-only',
  body: 'max-md:block',
  row: 'max-md:block max-md:py-2',
  /** A cell of text, with its column's name above it. */
  cell: 'max-md:block max-md:w-full max-md:py-1.5 max-md:first:pl-4 max-md:last:pr-4 max-md:whitespace-normal max-md:break-words max-md:before:mb-0.5 max-md:before:block max-md:before:text-xs max-md:before:font-semibold max-md:before:tracking-wide max-md:before:text-slate-500 max-md:before:uppercase max-md:before:content-[attr(data-label)]',
  /** The row's buttons: on a line of their own, from the left. */
  actions: 'max-md:block max-md:w-full max-md:py-2 max-md:first:pl-4 max-md:last:pr-4 max-md:text-left max-md:whitespace-normal',
  /** The flex box that holds the row's buttons. */
  buttons: 'max-md:justify-start max-md:flex-wrap',
} as const
