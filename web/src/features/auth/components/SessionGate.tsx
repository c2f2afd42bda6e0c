import { useQueryClient } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { useAuth, type AuthContextProps } from 'react-oidc-context'
import { createAppRouter } from '@/app/router'
import { returnToOf, safeReturnTo } from '../returnTo'
import { sessionPhase } from '../session'
import { authTexts } from '../texts'
import { FullPageMessage } from './FullPageMessage'
import { primaryButtonClass } from '@/components/buttonStyles'

/** Shows the session's transitional states; once it is settled, the router takes over. */
export function SessionGate() {
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
      return <AppRouter auth={auth} />
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

function AppRouter({ auth }: { auth: AuthContextProps }) {
  const queryClient = useQueryClient()
  const [router] = useState(() => createAppRouter(queryClient))
  const user = useRef(auth.user)
  useEffect(() => {
    // A renewed, changed or ended session: run the route guards again.
    if (user.current === auth.user) return
    user.current = auth.user
    void router.invalidate()
  }, [auth.user, router])
  return <RouterProvider router={router} context={{ auth }} />
}
