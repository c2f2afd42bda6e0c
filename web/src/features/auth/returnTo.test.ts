import { describe, expect, it } from 'vitest'
import { returnToOf, safeReturnTo } from './returnTo'

describe('returnToOf', () => {
  it('keeps the path and the query string exactly', () => {
    expect(returnToOf({ pathname: '/status', search: '?bron=e2e&pagina=2' })).toBe('/status?bron=e2e&pagina=2')
  })

  it('adds the question mark when the search string has none', () => {
    expect(returnToOf({ pathname: '/faq', search: 'a=1' })).toBe('/faq?a=1')
  })

  it('is only the path when there is no query string', () => {
    expect(returnToOf({ pathname: '/template/entry/12', search: '' })).toBe('/template/entry/12')
  })
})

describe('safeReturnTo', () => {
  it('returns the path stored in the sign-in state', () => {
    expect(safeReturnTo({ returnTo: '/status?bron=e2e&pagina=2' })).toBe('/status?bron=e2e&pagina=2')
  })

  it('accepts a bare path, as a query parameter carries it', () => {
    expect(safeReturnTo('/faq')).toBe('/faq')
  })

  it.each([
    ['no state', undefined],
    ['a state without returnTo', { other: 1 }],
    ['another site', 'https://example.com/'],
    ['a protocol-relative address', '//example.com/pad'],
    ['a backslash trick', '/\\example.com'],
    ['a relative path', 'status'],
    ['the callback itself', '/auth/callback?code=x&state=y'],
    ['a number', 42],
  ])('falls back to the home page for %s', (_, value) => {
    expect(safeReturnTo(value)).toBe('/')
  })
})
