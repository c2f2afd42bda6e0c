import type { ReactNode } from 'react'
import { useAuth, type AuthContextProps } from 'react-oidc-context'
import { returnToOf, safeReturnTo } from '../returnTo'
import { sessionPhase } from '../session'
import { authTexts } from '../texts'
import { FullPageMessage } from './FullPageMessage'
import { primaryButtonClass } from '@/components/buttonStyles'

/**
 * Shows the session's transitional states; once it is settled, `ready` (the app shell's router)
 * takes over with the session.
 */
export function SessionGate({ ready }: { ready: (auth: AuthContextProps) => ReactNode }) {
  const auth = useAuth()
  switch (sessionPhase(auth)) {
    case 'loading':
      return <FullPageMessage title={authTexts.loading} busy />
    case 'signingIn':
      return <FullPageMessage title={authTexts.signingIn} busy />
    case 'signingOut':
      return <FullPageMessage title={authTexts.signingOut} busy />
    case 'failed':
      return <LoginFailed auth={auth} />
    case 'ready':
      return ready(auth)
  }
}

function LoginFailed({ auth }: { auth: AuthContextProps }) {
  const retry = () => void auth.signinRedirect({ state: { returnTo: safeReturnTo(returnToOf(window.location)) } })
  return (
    <FullPageMessage title={authTexts.loginFailed}>
      <p>{authTexts.loginFailedHelp}</p>
      <button
        type="button"
        onClick={retry}
        className={`mt-6 ${primaryButtonClass}`}
      >
        {authTexts.retry}
      </button>
    </FullPageMessage>
  )
}
