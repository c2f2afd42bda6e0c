import { queryOptions } from '@tanstack/react-query'
import { publicApi, unwrap } from '@/api/client'

/** Where to post a hand-off's note and what; without a token (the page is public). A 404: expired or unknown. */
export function handOffQueryOptions(consultId: string) {
  return queryOptions({
    queryKey: ['handoff', consultId],
    queryFn: async ({ signal }) =>
      unwrap(
        await publicApi.GET('/api/integration/record-system/consult/{consult_id}/redirect', {
          params: { path: { consult_id: consultId } },
          signal,
        }),
      ),
    // read once: the page leaves as soon as it has posted the note
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  })
}
