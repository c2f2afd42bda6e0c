import { describe, expect, it } from 'vitest'
import { formatDate } from './dates'

describe('formatDate', () => {
  it('writes the Dutch long format', () => {
    expect(formatDate('2025-11-21T10:00:00Z')).toBe('21 november 2025')
  })

  it('uses UTC, so a late evening in UTC stays on that day', () => {
    expect(formatDate('2025-12-31T23:59:59.999Z')).toBe('31 december 2025')
  })
})
