import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { render } from '@testing-library/react'
import type { FunctionComponent } from 'react'

/** Renders a component inside a router at `path` (every path shows it), with a fresh query cache. */
export function renderAt(path: string, Component: FunctionComponent, queryClient = new QueryClient()) {
  const rootRoute = createRootRoute({ component: Outlet })
  const page = createRoute({ getParentRoute: () => rootRoute, path: '$', component: Component })
  const index = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Component })
  const router = createRouter({
    routeTree: rootRoute.addChildren([index, page]),
    history: createMemoryHistory({ initialEntries: [path] }),
    trailingSlash: 'preserve',
  })
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
  return { ...view, router }
}
