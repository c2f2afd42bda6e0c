import type { ParsedLocation } from '@tanstack/react-router'
import type { RouterContext } from '@/app/router'
import { publicConfigQueryOptions } from '@/features/auth/api'
import { EnvironmentRenewed, isOpenWhileRetiring, retiringEnvironment } from './retiring'

/**
 * Step 0 of the signed-in routes: while this environment is being retired, only the open pages
 * (see `isOpenWhileRetiring`) load; any other throws `EnvironmentRenewed`, before signing in.
 */
export async function requireOpenWhileRetiring(context: RouterContext, location: ParsedLocation): Promise<void> {
  const config = await context.queryClient.ensureQueryData(publicConfigQueryOptions())
  const retiring = retiringEnvironment(config)
  if (retiring && !isOpenWhileRetiring(location.pathname, location.searchStr)) throw new EnvironmentRenewed(retiring.url)
}
