import type { AuthContextProps } from 'react-oidc-context'

export type SessionPhase = 'loading' | 'signingIn' | 'signingOut' | 'failed' | 'ready'

/** What the whole page shows for the session's state; `ready` hands over to the router. */
export function sessionPhase(
  auth: Pick<AuthContextProps, 'isLoading' | 'isAuthenticated' | 'activeNavigator' | 'error'>,
): SessionPhase {
  if (auth.activeNavigator === 'signoutRedirect') return 'signingOut'
  if (auth.activeNavigator === 'signinRedirect') return 'signingIn'
  if (auth.error && !auth.isAuthenticated) return 'failed'
  if (auth.isLoading && !auth.activeNavigator) return 'loading'
  return 'ready'
}
