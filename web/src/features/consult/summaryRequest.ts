/**
 * The summary the page asked for: which job answers it, when it counts as delayed, and which
 * result wins when the user asked again.
 *
 * The newest request wins. Every `summarize` the page sends is answered on the same socket, in
 * order, by a `job` message in state `queued` naming its job (or by an `error` when it was
 * refused). The page follows only the job named for its newest request: the events and the result
 * of a job it asked for earlier are ignored, even when they arrive after the newer request or
 * before its answer, so a late summary never overwrites a newer one (which may cover more
 * transcript) or what the user typed since.
 */
import type { components } from '@/api/schema'
import { estimatedSeconds } from './progress'

type JobState = components['schemas']['JobState']

/**
 * How long past the progress estimate (transcript length / 70 s) the page waits for a summary
 * before it says that the summary is delayed and offers to ask again. It keeps listening (and
 * polling) after that: a result that still comes is shown as usual.
 */
export const SUMMARY_DELAY_GRACE_MS = 60_000

/** Milliseconds after asking at which a summary of `transcriptLength` characters counts as delayed. */
export function delayedAfterMs(transcriptLength: number): number {
  return estimatedSeconds(transcriptLength) * 1000 + SUMMARY_DELAY_GRACE_MS
}

/** The summary being made. */
export interface PendingSummary {
  /** The job the server named for this request; null until it answered. */
  jobId: string | null
  /** The job's last known state (`queued` until the server says more). */
  jobState: JobState
  transcriptLength: number
  /** When the page asked (milliseconds since the epoch). */
  askedAt: number
  /** The result arrived and is shown; the bar shows full a moment, then goes. */
  done: boolean
  /**
   * Why the job is being retried, in the worker's words ('Het taalmodel wordt nog geladen; de
   * samenvatting wordt zo opnieuw geprobeerd.'), while it is; null when it said nothing.
   */
  retryMessage: string | null
}

export interface SummaryStatus {
  pending: PendingSummary | null
  /** Why the newest request failed (Dutch), shown with 'Opnieuw proberen' until the next request. */
  failure: string | null
  /**
   * Requests sent on the current socket that it has not answered yet; its answers come in the
   * order of the requests, so only the answer that brings this to 0 is the newest request's.
   */
  unanswered: number
}

export const idleSummary: SummaryStatus = { pending: null, failure: null, unanswered: 0 }

/** Whether `pending` has waited past its bound at `now`. */
export function isDelayed(pending: PendingSummary | null, now: number): boolean {
  if (!pending || pending.done) return false
  return now - pending.askedAt >= delayedAfterMs(pending.transcriptLength)
}

/**
 * The page sent a (new) request; any earlier one is given up. `onSocket` is false for a request
 * made by a call (the classic routing), which the socket never answers.
 */
export function asked(status: SummaryStatus, transcriptLength: number, now: number, onSocket = true): SummaryStatus {
  return {
    pending: { jobId: null, jobState: 'queued', transcriptLength, askedAt: now, done: false, retryMessage: null },
    failure: null,
    unanswered: onSocket ? status.unanswered + 1 : status.unanswered,
  }
}

/** The call of the newest request answered with its job (still running): that job is followed. */
export function jobNamed(status: SummaryStatus, jobId: string): SummaryStatus {
  const pending = status.pending
  if (!pending || pending.done || pending.jobId !== null) return status
  return { ...status, pending: { ...pending, jobId } }
}

/** The call of the newest request failed: it ends with `message`. */
export function callFailed(status: SummaryStatus, message: string): SummaryStatus {
  if (!status.pending || status.pending.done) return status
  return { ...status, pending: null, failure: message }
}

/**
 * The socket went away: answers to what it was sent will not come. A request still without a job
 * stays pending (its job, if the server made one before the drop, is ignored); the delay bound
 * offers to ask again.
 */
export function socketLost(status: SummaryStatus): SummaryStatus {
  return status.unanswered === 0 ? status : { ...status, unanswered: 0 }
}

export type JobVerdict =
  /** The newest request's job: follow it. */
  | 'current'
  /** A job of an earlier request, or one this page did not ask for: ignore it. */
  | 'other'

/** Whether a message about job `id` (in `state`) concerns the newest request. */
export function verdict(status: SummaryStatus, id: string, state: JobState): JobVerdict {
  const pending = status.pending
  if (!pending || pending.done) return 'other'
  if (pending.jobId !== null) return pending.jobId === id ? 'current' : 'other'
  // still waiting for the answer: only the answer to the newest request names its job
  return state === 'queued' && status.unanswered === 1 ? 'current' : 'other'
}

/**
 * A `job` message (or a polled job) arrived. Returns the new status (the same object when nothing
 * changed); a failure of the newest request ends it with `failedMessage`. `workerMessage` is what
 * the worker said with the state (the socket's `message`): kept while the job is retried (through
 * the `running` of its next attempt), so the page can say why it waits.
 */
export function jobChanged(
  status: SummaryStatus,
  id: string,
  state: JobState,
  failedMessage: string,
  workerMessage: string | null = null,
): SummaryStatus {
  // the server answers requests with `queued`; the worker never sends that state
  const unanswered = state === 'queued' && status.pending?.jobId === null ? Math.max(0, status.unanswered - 1) : status.unanswered
  if (verdict(status, id, state) === 'other') return unanswered === status.unanswered ? status : { ...status, unanswered }
  const pending = status.pending!
  if (state === 'failed' || state === 'dead') return { pending: null, failure: failedMessage, unanswered }
  const retryMessage = state === 'retrying' ? workerMessage : state === 'running' ? pending.retryMessage : null
  if (pending.jobId === id && pending.jobState === state && pending.retryMessage === retryMessage && unanswered === status.unanswered) {
    return status
  }
  return { ...status, unanswered, pending: { ...pending, jobId: id, jobState: state, retryMessage } }
}

/** A result arrived for job `jobId`: whether it is the newest request's and should be shown. */
export function acceptsResult(status: SummaryStatus, jobId: string): boolean {
  const pending = status.pending
  if (!pending || pending.done) return false
  // a result names its job; before the server answered the request, no result can be its
  return pending.jobId === jobId
}

/** The newest request's result is shown. */
export function resultShown(status: SummaryStatus): SummaryStatus {
  return status.pending ? { ...status, pending: { ...status.pending, done: true, jobState: 'succeeded' } } : status
}

/**
 * The socket refused a request (an `error` while requests wait for their answer): the oldest
 * unanswered request is the refused one. When that is the newest, it ends.
 */
export function refused(status: SummaryStatus): SummaryStatus {
  if (status.unanswered === 0) return status
  const unanswered = status.unanswered - 1
  if (unanswered > 0 || !status.pending || status.pending.jobId !== null) return { ...status, unanswered }
  return { pending: null, failure: null, unanswered }
}

/** Socket errors about the speech, never an answer to a `summarize`. */
const SPEECH_ERRORS: readonly string[] = ['no_engine', 'bad_audio', 'store_failed']

/** Whether a socket `error` with `code` can be the refusal of a `summarize`. */
export function refusesRequest(code: string): boolean {
  return !code.startsWith('engine_') && !SPEECH_ERRORS.includes(code)
}

/** The full bar has been shown: the summary is over. */
export function finished(status: SummaryStatus): SummaryStatus {
  return status.pending?.done ? { ...status, pending: null } : status
}
