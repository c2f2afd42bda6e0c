/** The filled brand button used for the main action of a full-page message. */
export const primaryButtonClass =
  'rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700'
