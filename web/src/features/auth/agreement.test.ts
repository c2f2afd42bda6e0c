import { describe, expect, it } from 'vitest'
import { hasAcceptedAgreement } from './agreement'

describe('hasAcceptedAgreement', () => {
  it.each([
    ['true', true],
    ['the string "true"', 'true'],
    ['a date string', '2025-11-21'],
    ['a version number', 1],
  ])('accepts %s', (_, value) => {
    expect(hasAcceptedAgreement({ 'accepted-agreement': value })).toBe(true)
  })

  it.each([
    ['a missing claim', {}],
    ['false', { 'accepted-agreement': false }],
    ['the string "false"', { 'accepted-agreement': 'false' }],
    ['an empty string', { 'accepted-agreement': '' }],
    ['null', { 'accepted-agreement': null }],
    ['an object', { 'accepted-agreement': {} }],
  ])('refuses %s', (_, claims) => {
    expect(hasAcceptedAgreement(claims)).toBe(false)
  })

  it('refuses when there is no profile at all', () => {
    expect(hasAcceptedAgreement(undefined)).toBe(false)
  })

  it('ignores a similar claim of another name', () => {
    expect(hasAcceptedAgreement({ accepted_agreement: true, acceptedAgreement: true })).toBe(false)
  })
})
