import { describe, expect, it } from 'vitest'
import { estimatedSeconds, nextElapsed, progressFraction, PROGRESS_CAP } from './progress'

describe('the summary progress estimate', () => {
  it('takes transcript length / 70 seconds', () => {
    expect(estimatedSeconds(700)).toBe(10)
    expect(estimatedSeconds(7000)).toBe(100)
    // an almost empty transcript still takes one step
    expect(estimatedSeconds(0)).toBe(0.5)
  })

  it('advances half a second per tick', () => {
    let elapsed = 0
    for (let tick = 0; tick < 4; tick++) elapsed = nextElapsed(elapsed)
    expect(elapsed).toBe(2)
    expect(progressFraction(elapsed, 700, false)).toBeCloseTo(0.2)
  })

  it('waits below full until the result arrives, then jumps to done', () => {
    expect(progressFraction(30, 700, false)).toBe(PROGRESS_CAP)
    expect(progressFraction(0.5, 7000, true)).toBe(1)
  })
})
