import { useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { AuthProvider } from 'react-oidc-context'
import type { User } from 'oidc-client-ts'
import type { components } from '@/api/schema'
import { publicConfigQueryOptions } from '@/features/auth/api'
import { FullPageMessage } from '@/features/auth/components/FullPageMessage'
import { SessionGate } from '@/features/auth/components/SessionGate'
import { safeReturnTo } from '@/features/auth/returnTo'
import { authTexts } from '@/features/auth/texts'
import { userManagerFor } from '@/features/auth/userManager'
import { AppRouter } from './AppRouter'

/** Loads the sign-in settings first, so the identity provider is chosen by configuration alone. */
export function App() {
  const config = useQuery(publicConfigQueryOptions())
  if (config.isPending) return <FullPageMessage title={authTexts.loading} busy />
  if (config.isError) {
    return (
      <FullPageMessage title={authTexts.loginFailed}>
        <p>{authTexts.configFailed}</p>
        <button
          type="button"
          onClick={() => void config.refetch()}
          className="mt-6 rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-brand-800"
        >
          {authTexts.reload}
        </button>
      </FullPageMessage>
    )
  }
  return <Session config={config.data} />
}

function Session({ config }: { config: components['schemas']['PublicConfig'] }) {
  const userManager = userManagerFor(config)
  // Back from the identity provider: go (replacing the callback address) where the user wanted to be.
  // The router starts after this, so it reads the restored address.
  const onSigninCallback = useCallback((user: User | undefined) => {
    window.history.replaceState(null, '', safeReturnTo(user?.state))
  }, [])
  return (
    <AuthProvider userManager={userManager} onSigninCallback={onSigninCallback}>
      <SessionGate ready={(auth) => <AppRouter auth={auth} />} />
    </AuthProvider>
  )
}
