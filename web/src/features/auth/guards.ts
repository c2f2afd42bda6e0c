import { redirect, type ParsedLocation } from '@tanstack/react-router'
import type { User } from 'oidc-client-ts'
import type { AuthContextProps } from 'react-oidc-context'
import { hasAcceptedAgreement } from './agreement'
import { returnToOf, type SignInState } from './returnTo'

const forever = () => new Promise<never>(() => {})

function returnToOfLocation(location: ParsedLocation): string {
  return returnToOf({ pathname: location.pathname, search: location.searchStr })
}

/**
 * Step 1: a signed-in user. An expired session is renewed silently when it can be; otherwise the
 * browser goes to the identity provider, remembering where the user wanted to go.
 */
export async function requireSignIn(auth: AuthContextProps, location: ParsedLocation): Promise<User> {
  // `expired` is read now: `isAuthenticated` only changes when the session is loaded or renewed.
  if (auth.user && !auth.user.expired) return auth.user
  if (auth.user?.refresh_token) {
    // A revoked or expired refresh token means signing in again, not an error page.
    const renewed = await auth.signinSilent().catch(() => null)
    if (renewed && !renewed.expired) return renewed
  }
  const state: SignInState = { returnTo: returnToOfLocation(location) }
  await auth.signinRedirect({ state })
  // The page is leaving (or showing 'Login failed'); nothing below this route may load.
  return forever()
}

/** Step 2: the user accepted the gebruikersovereenkomst; otherwise only the agreement screen. */
export function requireAgreement(user: User, location: ParsedLocation): void {
  if (!hasAcceptedAgreement(user.profile)) {
    throw redirect({ to: '/overeenkomst', search: { returnTo: returnToOfLocation(location) }, replace: true })
  }
}
