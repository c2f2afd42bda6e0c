import { describe, expect, it } from 'vitest'
import { ApiError } from '@/api/client'
import { refusalReason } from './api'

describe('refusalReason', () => {
  it("gives the Dutch message of a 400, to show under the toast's message", () => {
    expect(refusalReason(new ApiError(400, { error: 'unknown_icpc', message: 'Onbekende ICPC-code: Q99' }))).toBe(
      'Onbekende ICPC-code: Q99',
    )
  })

  it('gives nothing for other failures', () => {
    expect(refusalReason(new ApiError(400, null))).toBeUndefined()
    expect(refusalReason(new ApiError(403, { error: 'forbidden', message: 'Geen toegang tot template' }))).toBeUndefined()
    expect(refusalReason(new ApiError(500, { error: 'internal', message: 'Er ging iets mis' }))).toBeUndefined()
    expect(refusalReason(new TypeError('Failed to fetch'))).toBeUndefined()
  })
})
