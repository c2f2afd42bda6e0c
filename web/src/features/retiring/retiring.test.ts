import { describe, expect, it } from 'vitest'
import { hasCompatibility, isOpenWhileRetiring, retiringEnvironment, showsRetiringBanner } from './retiring'

describe('isOpenWhileRetiring', () => {
  it('keeps the consult pages open, the public hand-off page too', () => {
    expect(isOpenWhileRetiring('/audioconsult/beta/soap', '')).toBe(true)
    expect(isOpenWhileRetiring('/audioconsult/beta/soap/poh-ggz', '')).toBe(true)
    expect(isOpenWhileRetiring('/consult/01jd8n3w3x6y0m2c5d3b4e9f7k', '')).toBe(true)
  })

  it('closes the first version of the consult', () => {
    expect(isOpenWhileRetiring('/consult/v1', '')).toBe(false)
    expect(isOpenWhileRetiring('/consult/v1/audio', '')).toBe(false)
    expect(isOpenWhileRetiring('/consult/v1/econsult', '')).toBe(false)
    // only that segment: an id that starts with v1 is another consult
    expect(isOpenWhileRetiring('/consult/v1abc', '')).toBe(true)
  })

  it('keeps the CMS and the subscriptions open', () => {
    expect(isOpenWhileRetiring('/cms', '')).toBe(true)
    expect(isOpenWhileRetiring('/cms/gebruikers', '')).toBe(true)
    expect(isOpenWhileRetiring('/subscription', '')).toBe(true)
    expect(isOpenWhileRetiring('/subscription/', '')).toBe(true)
  })

  it('closes every other page', () => {
    for (const path of ['/', '/template', '/template/', '/template/entry/1', '/onboarding/', '/personalize', '/status', '/faq', '/settings']) {
      expect(isOpenWhileRetiring(path, ''), path).toBe(false)
    }
  })

  it('matches whole segments, not the start of a word', () => {
    expect(isOpenWhileRetiring('/cmsx', '')).toBe(false)
    expect(isOpenWhileRetiring('/subscriptions', '')).toBe(false)
    expect(isOpenWhileRetiring('/audioconsultatie', '')).toBe(false)
    expect(isOpenWhileRetiring('/consultatie', '')).toBe(false)
  })

  it('opens any page with compatibility=true', () => {
    expect(isOpenWhileRetiring('/template', '?compatibility=true')).toBe(true)
    expect(isOpenWhileRetiring('/', 'compatibility=true')).toBe(true)
    expect(isOpenWhileRetiring('/consult/v1/audio', '?tab=groepen&compatibility=true')).toBe(true)
  })

  it('needs exactly compatibility=true', () => {
    expect(isOpenWhileRetiring('/template', '?compatibility=false')).toBe(false)
    expect(isOpenWhileRetiring('/template', '?compatibility=1')).toBe(false)
    expect(isOpenWhileRetiring('/template', '?compatibility')).toBe(false)
    expect(isOpenWhileRetiring('/template', '?Compatibility=true')).toBe(false)
    expect(hasCompatibility('?x=compatibility=true')).toBe(false)
  })
})

describe('retiringEnvironment', () => {
  it('is off while either setting is missing', () => {
    expect(retiringEnvironment(undefined)).toBeNull()
    expect(retiringEnvironment({ newEnvironmentUrl: null, newEnvironmentDate: null })).toBeNull()
    expect(retiringEnvironment({ newEnvironmentUrl: 'https://nieuw.example.nl/', newEnvironmentDate: null })).toBeNull()
    expect(retiringEnvironment({ newEnvironmentUrl: null, newEnvironmentDate: '2026-10-18' })).toBeNull()
  })

  it('gives the address and the day in Dutch', () => {
    expect(retiringEnvironment({ newEnvironmentUrl: 'https://nieuw.example.nl/', newEnvironmentDate: '2026-10-18' })).toEqual({
      url: 'https://nieuw.example.nl/',
      day: '18 oktober',
    })
  })

  it('never sends the browser to anything but an http(s) address', () => {
    expect(retiringEnvironment({ newEnvironmentUrl: 'javascript:alert(1)', newEnvironmentDate: '2026-10-18' })).toBeNull()
    expect(retiringEnvironment({ newEnvironmentUrl: 'nieuw.example.nl', newEnvironmentDate: '2026-10-18' })).toBeNull()
    expect(retiringEnvironment({ newEnvironmentUrl: 'https://nieuw.example.nl/', newEnvironmentDate: '18 oktober' })).toBeNull()
  })
})

describe('showsRetiringBanner', () => {
  it('shows on every signed-in page but the consult pages', () => {
    expect(showsRetiringBanner('/')).toBe(true)
    expect(showsRetiringBanner('/template')).toBe(true)
    expect(showsRetiringBanner('/subscription')).toBe(true)
    expect(showsRetiringBanner('/audioconsult/beta/soap')).toBe(false)
    expect(showsRetiringBanner('/audioconsult/beta/soap/poh-ggz')).toBe(false)
  })
})
