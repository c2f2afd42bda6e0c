import { describe, expect, it } from 'vitest'
import { normalize, words } from './text'

describe('normalize', () => {
  it('ignores case, accents and spacing, as the api does', () => {
    expect(normalize('  Diëtist  en ÉCZEEM\tcoördinatie ')).toBe('dietist en eczeem coordinatie')
  })

  it('keeps an empty or blank text empty', () => {
    expect(normalize('')).toBe('')
    expect(normalize(' \n\t ')).toBe('')
  })

  it('removes combining marks that were typed separately', () => {
    expect(normalize('Patie\u0308nt')).toBe('patient')
  })
})

describe('words', () => {
  it('gives each normalised word once, in the order typed', () => {
    expect(words('Knie knie  PIJN')).toEqual(['knie', 'pijn'])
    expect(words('Pijn knie KNIË')).toEqual(['pijn', 'knie'])
  })

  it('gives nothing for a blank search', () => {
    expect(words('   ')).toEqual([])
  })
})
