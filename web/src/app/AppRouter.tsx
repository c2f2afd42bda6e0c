import { useQueryClient } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import type { AuthContextProps } from 'react-oidc-context'
import { createAppRouter } from './router'

/** The router, made once per session gate, with the session as its context. */
export function AppRouter({ auth }: { auth: AuthContextProps }) {
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
