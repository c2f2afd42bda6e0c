/** The scaling of the small bar charts of Statistieken: pure, so it is tested without a browser. */

/** The smallest 1, 2 or 5 times a power of ten that is at least `max` (1 for nothing above 0). */
export function niceCeiling(max: number): number {
  if (!Number.isFinite(max) || max <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}

export interface Bar {
  x: number
  y: number
  width: number
  height: number
}

export interface ChartLayout {
  /** The value at the top of the chart. */
  top: number
  bars: Bar[]
}

/**
 * Bars for `values` in a `width` × `height` box, left to right, with `gap` between them; the
 * tallest reaches `height` only when it equals the nice ceiling. A value above 0 is at least
 * one unit high, so a single consult still shows.
 */
export function barLayout(values: readonly number[], width: number, height: number, gap = 1): ChartLayout {
  const top = niceCeiling(Math.max(0, ...values))
  if (values.length === 0) return { top, bars: [] }
  const slot = width / values.length
  const barWidth = Math.max(0.5, slot - gap)
  const bars = values.map((raw, i) => {
    const value = Math.max(0, raw)
    const h = value === 0 ? 0 : Math.max(1, (value / top) * height)
    return { x: i * slot, y: height - h, width: barWidth, height: h }
  })
  return { top, bars }
}

/** The sum, the highest value and the index of its first day. */
export function summarise(values: readonly number[]): { total: number; max: number; maxIndex: number } {
  let total = 0
  let max = 0
  let maxIndex = -1
  values.forEach((value, i) => {
    total += value
    if (value > max) {
      max = value
      maxIndex = i
    }
  })
  return { total, max, maxIndex }
}
