import { describe, expect, it } from 'vitest'
import { formatDate, formatDayMonth } from './dates'

describe('formatDate', () => {
  it('writes the Dutch long format', () => {
    expect(formatDate('2025-11-21T10:00:00Z')).toBe('21 november 2025')
  })

  it('uses UTC, so a late evening in UTC stays on that day', () => {
    expect(formatDate('2025-12-31T23:59:59.999Z')).toBe('31 december 2025')
  })
})

describe('formatDayMonth', () => {
  it('writes a calendar day as day and Dutch month', () => {
    expect(formatDayMonth('2026-10-18')).toBe('18 oktober')
    expect(formatDayMonth('2027-03-01')).toBe('1 maart')
    expect(formatDayMonth('2026-12-31')).toBe('31 december')
  })

  it('keeps the day whatever the time zone of the browser', () => {
    // parsed as a calendar day, not as midnight somewhere
    expect(formatDayMonth('2026-01-01')).toBe('1 januari')
  })

  it('refuses what is not a calendar day', () => {
    expect(formatDayMonth('2026-02-30')).toBeNull()
    expect(formatDayMonth('18-10-2026')).toBeNull()
    expect(formatDayMonth('2026-10-18T00:00:00Z')).toBeNull()
    expect(formatDayMonth('')).toBeNull()
  })
})
