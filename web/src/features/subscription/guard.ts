import type { QueryClient } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { accessQuery } from './api'

/**
 * The consult and template pages need an active personal or organisation subscription (spec §2.1);
 * without one the user lands on /subscription. The api refuses the same calls with 402.
 */
export async function requireSubscription(queryClient: QueryClient): Promise<void> {
  const allowed = await queryClient.ensureQueryData(accessQuery())
  if (!allowed) throw redirect({ to: '/subscription', replace: true })
}
