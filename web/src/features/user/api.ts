import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** The signed-in user as the api sees them (names, roles, agreement). */
export function meQueryOptions() {
  return queryOptions({
    queryKey: ['user', 'me'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/me', { signal })),
  })
}
