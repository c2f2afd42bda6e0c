import { describe, expect, it } from 'vitest'
import { greetingName } from './greeting'
import { homeTexts } from './texts'

describe('greetingName', () => {
  it('uses the preferred name from the profile', () => {
    expect(greetingName({ preferredName: 'Anne de Vries', username: 'huisarts' })).toBe('Anne de Vries')
  })

  it('uses the login name when the profile has no preferred name', () => {
    expect(greetingName({ preferredName: null, username: 'poh' })).toBe('poh')
  })

  it('uses the login name when the preferred name is blank', () => {
    expect(greetingName({ preferredName: '   ', username: 'poh' })).toBe('poh')
  })

  it('trims the preferred name', () => {
    expect(greetingName({ preferredName: ' Anne ', username: 'huisarts' })).toBe('Anne')
  })
})

describe('the greeting', () => {
  it('welcomes the user by name', () => {
    expect(homeTexts.greeting('Anne de Vries')).toBe('Welkom, Anne de Vries')
  })
})
