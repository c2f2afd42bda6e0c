import { describe, expect, it } from 'vitest'
import { classicRoute } from './api'

describe('classicRoute', () => {
  it('is v2-turbo for normal precision and v1 for high (spec §7, summarise routing)', () => {
    expect(classicRoute('medium')).toBe('v2-turbo')
    expect(classicRoute('high')).toBe('v1')
  })
})
