import { describe, expect, it } from 'vitest'
import { sessionPhase } from './session'

const idle = { isLoading: false, isAuthenticated: false, activeNavigator: undefined, error: undefined }

describe('sessionPhase', () => {
  it('is loading while the stored session is read or the callback is handled', () => {
    expect(sessionPhase({ ...idle, isLoading: true })).toBe('loading')
  })

  it('is signing in while the browser leaves for the identity provider', () => {
    expect(sessionPhase({ ...idle, isLoading: true, activeNavigator: 'signinRedirect' })).toBe('signingIn')
  })

  it('is signing out while the browser leaves for the end-session page', () => {
    expect(sessionPhase({ ...idle, isAuthenticated: true, activeNavigator: 'signoutRedirect' })).toBe('signingOut')
  })

  it('has failed when signing in went wrong and there is no session', () => {
    expect(sessionPhase({ ...idle, error: new Error('invalid_grant') as never })).toBe('failed')
  })

  it('keeps a signed-in user in the application when a background renewal fails', () => {
    expect(sessionPhase({ ...idle, isAuthenticated: true, error: new Error('renew') as never })).toBe('ready')
  })

  it('keeps the application on screen during a silent renewal', () => {
    expect(sessionPhase({ ...idle, isAuthenticated: true, isLoading: true, activeNavigator: 'signinSilent' })).toBe('ready')
  })

  it('hands over to the router otherwise, signed in or not', () => {
    expect(sessionPhase(idle)).toBe('ready')
    expect(sessionPhase({ ...idle, isAuthenticated: true })).toBe('ready')
  })
})
