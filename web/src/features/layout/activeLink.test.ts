import { describe, expect, it } from 'vitest'
import { firstSegment, isActiveLink } from './activeLink'

describe('firstSegment', () => {
  it.each([
    ['/', ''],
    ['', ''],
    ['/status', 'status'],
    ['/template/', 'template'],
    ['/template/entry/12', 'template'],
    ['/status?bron=e2e', 'status'],
    ['//faq', 'faq'],
  ])('of %s is "%s"', (path, segment) => {
    expect(firstSegment(path)).toBe(segment)
  })
})

describe('isActiveLink', () => {
  it('marks Overzicht on the home page only', () => {
    expect(isActiveLink('/', '/')).toBe(true)
    expect(isActiveLink('/', '/status')).toBe(false)
  })

  it('marks a link on its own page', () => {
    expect(isActiveLink('/status', '/status')).toBe(true)
  })

  it('marks a link on any page below it', () => {
    expect(isActiveLink('/template', '/template/entry/12')).toBe(true)
    expect(isActiveLink('/template', '/template/group/3')).toBe(true)
  })

  it('compares whole segments, not prefixes', () => {
    expect(isActiveLink('/template', '/templates')).toBe(false)
    expect(isActiveLink('/faq', '/faqs/1')).toBe(false)
  })

  it('marks no link on a page outside the navigation', () => {
    const links = ['/', '/template', '/status', '/faq', '/subscription']
    expect(links.filter((link) => isActiveLink(link, '/audioconsult/beta/soap'))).toEqual([])
  })
})
