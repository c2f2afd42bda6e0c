import { describe, expect, it } from 'vitest'
import { formatEuros } from '@/features/subscription'
import { dateTime, dateTimeUtc, day, euros, term } from './format'

// Intl puts a no-break space between the sign and the amount
const plain = (text: string) => text.replace(/\u00a0/g, ' ')

describe('money and time in the CMS', () => {
  it('shows cents as the subscription page does', () => {
    expect(plain(euros(12_100))).toBe('€ 121,00')
    expect(plain(euros(133_380))).toBe('€ 1.333,80')
    expect(euros(7_800)).toBe(formatEuros(7_800))
  })

  it('shows days in the long Dutch format, in UTC', () => {
    expect(day('2026-11-21')).toBe('21 november 2026')
    expect(day('2026-11-21T23:30:00Z')).toBe('21 november 2026')
    expect(day(null)).toBe('-')
    expect(term('2026-01-05T10:00:00Z', '2027-01-05')).toBe('5 januari 2026 – 5 januari 2027')
  })

  it('shows a moment with its Dutch time', () => {
    expect(dateTime('2026-11-21T10:00:05Z')).toBe('21 november 2026 om 11:00:05')
    expect(dateTime('2026-07-01T10:00:05Z')).toBe('1 juli 2026 om 12:00:05')
  })

  it('shows a moment in UTC with the zone said', () => {
    expect(dateTimeUtc('2026-11-21T10:00:05Z')).toBe('21 november 2026 om 10:00:05 UTC')
    expect(dateTimeUtc('2026-07-01T23:30:00Z')).toBe('1 juli 2026 om 23:30:00 UTC')
    expect(dateTimeUtc(null)).toBe('-')
  })
})
