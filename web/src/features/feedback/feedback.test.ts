import { describe, expect, it } from 'vitest'
import { canSend, consultIdFrom, feedbackType, firstSegment, isTooLong, supportEmailOf } from './feedback'
import { FALLBACK_SUPPORT_EMAIL, feedbackTexts } from './texts'

describe('feedbackType', () => {
  it('follows the page', () => {
    expect(feedbackType('/template')).toBe('template')
    expect(feedbackType('/template/entry/123')).toBe('template')
    expect(feedbackType('/faq')).toBe('faq')
    expect(feedbackType('/status')).toBe('status')
    expect(feedbackType('/')).toBe('default')
    expect(feedbackType('/personalize')).toBe('default')
    expect(feedbackType('/templates')).toBe('default')
  })
})

describe('firstSegment', () => {
  it('is the first path segment, or null on Home', () => {
    expect(firstSegment('/template/group/9')).toBe('template')
    expect(firstSegment('/onboarding/')).toBe('onboarding')
    expect(firstSegment('/')).toBeNull()
  })
})

describe('the 3000-character rule', () => {
  it('refuses 3000 characters or more', () => {
    expect(isTooLong('a'.repeat(2999))).toBe(false)
    expect(isTooLong('a'.repeat(3000))).toBe(true)
    expect(canSend('a'.repeat(2999))).toBe(true)
    expect(canSend('a'.repeat(3000))).toBe(false)
    expect(canSend('a'.repeat(3001))).toBe(false)
  })

  it('needs some text', () => {
    expect(canSend('')).toBe(false)
    expect(canSend('   ')).toBe(false)
  })

  it('names the support address in the warning', () => {
    expect(feedbackTexts.tooLong(3000, 'hulp@praktijk.nl')).toContain('hulp@praktijk.nl')
  })
})

describe('consultIdFrom', () => {
  it('takes the consult id param when present', () => {
    expect(consultIdFrom({ consultId: 'abc' })).toBe('abc')
    expect(consultIdFrom({ entryId: 'x' })).toBeNull()
    expect(consultIdFrom(undefined)).toBeNull()
  })
})

describe('supportEmailOf', () => {
  it('takes the address from the public settings', () => {
    expect(supportEmailOf({ supportEmail: 'hulp@praktijk.nl' })).toBe('hulp@praktijk.nl')
  })

  it('falls back to the known address while the settings load or when they leave it empty', () => {
    expect(FALLBACK_SUPPORT_EMAIL).toBe('support@spreekkamer.nl')
    expect(supportEmailOf(undefined)).toBe(FALLBACK_SUPPORT_EMAIL)
    expect(supportEmailOf({ supportEmail: '  ' })).toBe(FALLBACK_SUPPORT_EMAIL)
  })
})
