import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

/** A background job as `GET /api/jobs/{id}` shows it. */
export type Job = components['schemas']['JobView']
export type JobState = components['schemas']['JobState']
/** A summary job's result: where its note is, and for its owner the note. */
export type SummaryOutcome = components['schemas']['SummaryOutcome']

const FINISHED: readonly JobState[] = ['succeeded', 'failed', 'dead']

/** No further attempt will be made. */
export function isFinished(job: Pick<Job, 'state'>): boolean {
  return FINISHED.includes(job.state)
}

/** The result of a summary job (the one with a `summaryId`), or null for another kind's or none. */
export function summaryOutcome(job: Pick<Job, 'result'>): SummaryOutcome | null {
  const result = job.result
  if (!result || !('summaryId' in result) || typeof result.summaryId !== 'string') return null
  // the document's oneOf is untagged: `summaryId` is what only a summary job's result has
  return result as SummaryOutcome
}

/** Poll every second while the job waits or runs; a job that will retry later is asked again
 * when its next attempt is due (between 1 and 30 seconds); a finished job is not polled. */
export function nextPoll(job: Pick<Job, 'state' | 'runAt'> | undefined, now: number = Date.now()): number | false {
  if (!job) return 1000
  if (isFinished(job)) return false
  if (job.state === 'retrying') {
    const due = Date.parse(job.runAt) - now
    return Math.min(30_000, Math.max(1000, Number.isFinite(due) ? due : 1000))
  }
  return 1000
}

export function jobQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['jobs', id],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/jobs/{id}', { params: { path: { id } }, signal })),
    // an unknown job (404) or a failing call is not polled on
    refetchInterval: (query) => (query.state.error ? false : nextPoll(query.state.data)),
    retry: false,
  })
}

/** The state of a job the user started, polled until it is finished. */
export function useJob(id: string | undefined) {
  return useQuery({ ...jobQueryOptions(id ?? ''), enabled: Boolean(id) })
}
