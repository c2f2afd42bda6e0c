/** What the sign-in redirect carries through the identity provider and back. */
export interface SignInState {
  returnTo: string
}

/** The path and query string the user wanted, to come back to after signing in. */
export function returnToOf(location: { pathname: string; search?: string }): string {
  const search = location.search ?? ''
  return location.pathname + (search && !search.startsWith('?') ? `?${search}` : search)
}

/**
 * A place inside this application to go back to, taken from untrusted input (the sign-in state or
 * a query parameter). Anything that is not a local path becomes the home page.
 */
export function safeReturnTo(value: unknown): string {
  const candidate =
    typeof value === 'object' && value !== null && 'returnTo' in value ? value.returnTo : value
  if (typeof candidate !== 'string') return '/'
  const local = candidate.startsWith('/') && !candidate.startsWith('//') && !candidate.startsWith('/\\')
  // eslint-disable-next-line no-control-regex -- a return address with control characters is refused on purpose
  if (!local || /[\u0000-\u001f]/.test(candidate)) return '/'
  if (candidate === '/auth/callback' || candidate.startsWith('/auth/callback?')) return '/'
  return candidate
}
