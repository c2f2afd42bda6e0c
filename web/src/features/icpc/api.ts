import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** The ICPC list in force. It does not change while the application runs, so it is fetched once. */
export function icpcCodesQueryOptions() {
  return queryOptions({
    queryKey: ['icpc', 'codes'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/codes.json', { signal })),
    staleTime: Infinity,
  })
}

export function useIcpcCodes() {
  return useQuery(icpcCodesQueryOptions())
}
