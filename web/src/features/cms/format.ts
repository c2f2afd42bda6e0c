/** How the CMS shows money, days and moments. */
import { formatEuros } from '@/features/subscription'
import { formatDate } from '@/lib/dates'

/** Cents as Dutch euros, as the subscription page shows them: '€ 121,00'. */
export function euros(cents: number): string {
  return formatEuros(cents)
}

/** A day or a timestamp as its day ('21 november 2026', UTC), or '-' when there is none. */
export function day(value: string | null | undefined): string {
  return value ? formatDate(value) : '-'
}

const moment = new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'medium', timeZone: 'Europe/Amsterdam' })

/** A moment with its time, as it was in the Netherlands: '21 november 2026 om 11:00:05'. */
export function dateTime(value: string | null | undefined): string {
  return value ? moment.format(new Date(value)) : '-'
}

const utcMoment = new Intl.DateTimeFormat('nl-NL', { dateStyle: 'long', timeStyle: 'medium', timeZone: 'UTC' })

/** A moment in UTC, the zone said: '21 november 2026 om 10:00:05 UTC'. */
export function dateTimeUtc(value: string | null | undefined): string {
  return value ? `${utcMoment.format(new Date(value))} UTC` : '-'
}

/** 'createdAt – validUntil' as days. */
export function term(from: string | null | undefined, until: string | null | undefined): string {
  return `${day(from)} – ${day(until)}`
}
