import type { QueryClient } from '@tanstack/react-query'
import type { AuthContextProps } from 'react-oidc-context'

/** What every route's `beforeLoad` and `loader` receive. */
export interface RouterContext {
  auth: AuthContextProps
  queryClient: QueryClient
}
