import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { SessionGate } from './SessionGate'

const auth = vi.hoisted(() => ({
  current: {},
}))

vi.mock('react-oidc-context', () => ({ useAuth: () => auth.current }))

function renderGate(state: Record<string, unknown>) {
  auth.current = { isLoading: false, isAuthenticated: false, activeNavigator: undefined, error: undefined, ...state }
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionGate ready={() => <p>app</p>} />
    </QueryClientProvider>,
  )
}

describe('SessionGate', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'))

  it("shows 'Auth is loading...' while the session is read", () => {
    renderGate({ isLoading: true })
    expect(screen.getByRole('heading')).toHaveTextContent('Auth is loading...')
  })

  it("shows 'Signing you in ...' while going to the identity provider", () => {
    renderGate({ isLoading: true, activeNavigator: 'signinRedirect' })
    expect(screen.getByRole('heading')).toHaveTextContent('Signing you in ...')
  })

  it("shows 'Signing you out ...' while going to the end-session page", () => {
    renderGate({ isLoading: true, isAuthenticated: true, activeNavigator: 'signoutRedirect' })
    expect(screen.getByRole('heading')).toHaveTextContent('Signing you out ...')
  })

  it('hands a settled session to the app', () => {
    renderGate({ isAuthenticated: true })
    expect(screen.getByText('app')).toBeInTheDocument()
  })

  it("shows 'Login failed' with a way to try again", async () => {
    const signinRedirect = vi.fn()
    window.history.replaceState(null, '', '/auth/callback?error=access_denied&state=x')
    renderGate({ error: new Error('access_denied'), signinRedirect })
    expect(screen.getByRole('heading')).toHaveTextContent('Login failed')
    await userEvent.click(screen.getByRole('button', { name: 'Opnieuw inloggen' }))
    expect(signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/' } })
  })
})
