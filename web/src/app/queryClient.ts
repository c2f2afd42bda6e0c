import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'

/** Query results are kept 60 s after their last use. */
export const QUERY_GC_TIME_MS = 60_000

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: QUERY_GC_TIME_MS,
        staleTime: 10_000,
        // A refused call (401, 403, 404, 422) will not succeed on a second try.
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      },
    },
  })
}
