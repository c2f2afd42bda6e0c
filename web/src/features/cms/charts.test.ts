import { describe, expect, it } from 'vitest'
import { barLayout, niceCeiling, summarise } from './charts'

describe('the charts\' scale', () => {
  it('rounds the highest value up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 19, 20, 21, 99, 101, 480, 501].map(niceCeiling)).toEqual([1, 1, 2, 5, 10, 10, 20, 20, 20, 50, 100, 200, 500, 1000])
  })

  it('draws bars from the bottom, scaled to the ceiling', () => {
    const { top, bars } = barLayout([0, 5, 10], 30, 100, 2)
    expect(top).toBe(10)
    expect(bars).toEqual([
      { x: 0, y: 100, width: 8, height: 0 },
      { x: 10, y: 50, width: 8, height: 50 },
      { x: 20, y: 0, width: 8, height: 100 },
    ])
  })

  it('keeps a small value visible and refuses negative ones', () => {
    const { bars } = barLayout([1, 1000, -3], 3, 100, 0)
    expect(bars[0].height).toBe(1)
    expect(bars[2].height).toBe(0)
  })

  it('has no bars without days, and a scale of one without values', () => {
    expect(barLayout([], 100, 50)).toEqual({ top: 1, bars: [] })
    expect(barLayout([0, 0], 100, 50).top).toBe(1)
  })

  it('sums and finds the first highest day', () => {
    expect(summarise([1, 4, 2, 4])).toEqual({ total: 11, max: 4, maxIndex: 1 })
    expect(summarise([0, 0])).toEqual({ total: 0, max: 0, maxIndex: -1 })
  })
})
