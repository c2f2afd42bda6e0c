import type { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'
import type { AuthContextProps } from 'react-oidc-context'
import { ErrorPage } from '@/features/errors/ErrorPage'
import { NotFoundPage } from '@/features/errors/NotFoundPage'
import { routeTree } from '@/routeTree.gen'

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    // `auth` is supplied by <RouterProvider context> on every render.
    context: { queryClient, auth: undefined as unknown as AuthContextProps },
    defaultPreload: 'intent',
    // Freshness is the query cache's business.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // The specification's addresses keep their trailing slash (/onboarding/, /template/).
    trailingSlash: 'preserve',
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
}
