import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** The deployment's sign-in settings; fetched before anything else, without a token. */
export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['public', 'config'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/public/config', { signal })),
    staleTime: Infinity,
  })
}
