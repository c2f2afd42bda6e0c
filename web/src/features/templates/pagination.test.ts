import { describe, expect, it } from 'vitest'
import { clampOffset, hasNext, hasPrevious, paginationLabel } from './pagination'

describe('paginationLabel', () => {
  it("reads 'Resultaat x tot y van z regels'", () => {
    expect(paginationLabel(0, 5, 12)).toBe('Resultaat 1 tot 5 van 12 regels')
    expect(paginationLabel(5, 5, 12)).toBe('Resultaat 6 tot 10 van 12 regels')
    expect(paginationLabel(10, 2, 12)).toBe('Resultaat 11 tot 12 van 12 regels')
  })

  it('speaks of one regel when there is one', () => {
    expect(paginationLabel(0, 1, 1)).toBe('Resultaat 1 tot 1 van 1 regel')
  })

  it('says so when there are no results', () => {
    expect(paginationLabel(0, 0, 0)).toBe('Geen resultaten')
    expect(paginationLabel(5, 0, 3)).toBe('Geen resultaten op deze pagina (3 in totaal)')
  })
})

describe('clampOffset', () => {
  it('keeps an offset within the list', () => {
    expect(clampOffset(5, 12)).toBe(5)
    expect(clampOffset(5, undefined)).toBe(5)
  })

  it('goes back to the last page when the list got shorter', () => {
    expect(clampOffset(10, 10)).toBe(5)
    expect(clampOffset(15, 7)).toBe(5)
    expect(clampOffset(5, 0)).toBe(0)
  })
})

describe('Vorige and Volgende', () => {
  it('are available except at the ends', () => {
    expect(hasPrevious(0)).toBe(false)
    expect(hasPrevious(5)).toBe(true)
    expect(hasNext(0, 5, 12)).toBe(true)
    expect(hasNext(10, 2, 12)).toBe(false)
    expect(hasNext(0, 5, 5)).toBe(false)
    expect(hasNext(0, 0, 0)).toBe(false)
  })
})
