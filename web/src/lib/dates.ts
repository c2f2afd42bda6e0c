const longDate = new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeZone: 'UTC' })

/** A date as the product shows dates: Dutch long format, in UTC ("21 november 2025"). */
export function formatDate(value: Date | string | number): string {
  return longDate.format(new Date(value))
}
