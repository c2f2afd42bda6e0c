import { createRootRouteWithContext, Outlet, retainSearchParams } from '@tanstack/react-router'
import { z } from 'zod'
import type { RouterContext } from '@/app/routerContext'
import { ErrorPage } from '@/features/errors/ErrorPage'
import { NotFoundPage } from '@/features/errors/NotFoundPage'

const search = z.object({
  // `?compatibility=true` keeps every page of a retiring environment open; it stays in the
  // address while navigating
  compatibility: z.boolean().optional().catch(undefined),
})

export const Route = createRootRouteWithContext<RouterContext>()({
  validateSearch: search,
  search: { middlewares: [retainSearchParams(['compatibility'])] },
  component: Outlet,
  errorComponent: ErrorPage,
  notFoundComponent: NotFoundPage,
})
