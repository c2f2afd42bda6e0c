const focus = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700'

/** The filled brand button used for the main action of a full-page message. */
export const primaryButtonClass =
  'rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700'

/** A white button with a grey ring, for the other actions beside a primary one. */
export const secondaryButtonClass = `rounded-md bg-white px-4 py-2 text-sm font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 ${focus}`

/** A red button for an action that removes something. */
export const dangerButtonClass = `rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600`

/** A small borderless button with an icon, inside a table row or a list. */
export const iconButtonClass = `inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50 ${focus}`
