import { queryOptions } from '@tanstack/react-query'
import { api } from '@/api/client'

/** The api's readiness: `reachable` is false when no answer with checks came back at all. */
export function readinessQueryOptions() {
  return queryOptions({
    queryKey: ['health', 'readiness'],
    queryFn: async ({ signal }) => {
      const checkedAt = Date.now()
      try {
        // 200 and 503 both carry the checks.
        const { data, error, response } = await api.GET('/readyz', { signal })
        const checks = (data ?? error)?.checks
        if (!checks) return { reachable: false, ready: false, checks: {}, checkedAt }
        return { reachable: true, ready: response.ok, checks, checkedAt }
      } catch (failure) {
        if (signal.aborted) throw failure
        return { reachable: false, ready: false, checks: {}, checkedAt }
      }
    },
    staleTime: 0,
    refetchInterval: 30_000,
  })
}
