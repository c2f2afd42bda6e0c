const longDate = new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeZone: 'UTC' })

/** A date as the product shows dates: Dutch long format, in UTC ("21 november 2025"). */
export function formatDate(value: Date | string | number): string {
  return longDate.format(new Date(value))
}

const dayMonth = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', timeZone: 'UTC' })

/**
 * A calendar day (`YYYY-MM-DD`) as day and month in Dutch ("18 oktober"); null when it is not
 * such a day.
 */
export function formatDayMonth(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  const [year, month, date] = match.slice(1).map(Number)
  const value = new Date(Date.UTC(year, month - 1, date))
  // 2026-02-30 is no day
  if (value.getUTCFullYear() !== year || value.getUTCMonth() !== month - 1 || value.getUTCDate() !== date) return null
  return dayMonth.format(value)
}
