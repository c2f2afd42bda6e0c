import type { QueryClient } from '@tanstack/react-query'
import type { ParsedLocation } from '@tanstack/react-router'
import { publicConfigQueryOptions } from '@/features/auth'
import { EnvironmentRenewed, isOpenWhileRetiring, retiringEnvironment } from './retiring'

/**
 * Step 0 of the signed-in routes: while this environment is being retired, only the open pages
 * (see `isOpenWhileRetiring`) load; any other throws `EnvironmentRenewed`, before signing in.
 */
export async function requireOpenWhileRetiring(context: { queryClient: QueryClient }, location: ParsedLocation): Promise<void> {
  const config = await context.queryClient.ensureQueryData(publicConfigQueryOptions())
  const retiring = retiringEnvironment(config)
  if (retiring && !isOpenWhileRetiring(location.pathname, location.searchStr)) throw new EnvironmentRenewed(retiring.url)
}
