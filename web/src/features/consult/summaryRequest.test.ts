import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  acceptsResult,
  asked,
  delayedAfterMs,
  finished,
  idleSummary,
  isDelayed,
  jobChanged,
  refused,
  refusesRequest,
  resultShown,
  socketLost,
  SUMMARY_DELAY_GRACE_MS,
  type SummaryStatus,
} from './summaryRequest'
import { useSummaryDelayed } from './useElapsed'

const FAILED = 'De samenvatting kon niet worden gemaakt.'
const t0 = Date.parse('2026-11-23T10:00:00Z')

/** Asked for a summary of `length` characters at `now`, answered with job `id`. */
function running(id: string, length = 700, now = t0, from: SummaryStatus = idleSummary): SummaryStatus {
  return jobChanged(asked(from, length, now), id, 'queued', FAILED)
}

describe('when a summary counts as delayed', () => {
  it('is a minute past the estimate of transcript length / 70 seconds', () => {
    expect(SUMMARY_DELAY_GRACE_MS).toBe(60_000)
    expect(delayedAfterMs(700)).toBe(70_000)
    expect(delayedAfterMs(7000)).toBe(160_000)
    // an almost empty transcript: half a second of estimate
    expect(delayedAfterMs(0)).toBe(60_500)
  })

  it('is not before the bound, is at it, and never once the result is there', () => {
    const { pending } = running('job-1')
    expect(isDelayed(pending, t0 + 69_999)).toBe(false)
    expect(isDelayed(pending, t0 + 70_000)).toBe(true)
    expect(isDelayed(resultShown(running('job-1')).pending, t0 + 600_000)).toBe(false)
    expect(isDelayed(null, t0 + 600_000)).toBe(false)
  })

  it('counts again from a new request', () => {
    const first = running('job-1')
    const again = asked(first, 700, t0 + 80_000)
    expect(isDelayed(first.pending, t0 + 80_000)).toBe(true)
    expect(isDelayed(again.pending, t0 + 80_000)).toBe(false)
    expect(isDelayed(again.pending, t0 + 150_000)).toBe(true)
  })
})

describe('following the summary job', () => {
  it('takes the job the server names in answer, then follows its states', () => {
    let status = asked(idleSummary, 700, t0)
    expect(status.pending?.jobId).toBeNull()
    status = jobChanged(status, 'job-1', 'queued', FAILED)
    expect(status.pending).toMatchObject({ jobId: 'job-1', jobState: 'queued' })
    expect(status.unanswered).toBe(0)
    status = jobChanged(status, 'job-1', 'running', FAILED)
    expect(status.pending?.jobState).toBe('running')
    expect(acceptsResult(status, 'job-1')).toBe(true)
    status = resultShown(status)
    expect(status.pending?.done).toBe(true)
    // the job's own `succeeded` after the result changes nothing
    expect(jobChanged(status, 'job-1', 'succeeded', FAILED)).toEqual(status)
    expect(finished(status).pending).toBeNull()
  })

  it('ends a failed or dead job with a Dutch message the page shows until the user asks again', () => {
    for (const state of ['failed', 'dead'] as const) {
      const status = jobChanged(running('job-1'), 'job-1', state, FAILED)
      expect(status.pending).toBeNull()
      expect(status.failure).toBe(FAILED)
      const again = asked(status, 700, t0 + 1000)
      expect(again.failure).toBeNull()
      expect(again.pending?.jobId).toBeNull()
    }
  })

  it('says why a job is retried while it is, in the worker\'s words', () => {
    const loading = 'Het taalmodel wordt nog geladen; de samenvatting wordt zo opnieuw geprobeerd.'
    let status = jobChanged(running('job-1'), 'job-1', 'retrying', FAILED, loading)
    expect(status.pending).toMatchObject({ jobState: 'retrying', retryMessage: loading })
    expect(status.failure).toBeNull()
    // the next attempt runs: still the same wait
    status = jobChanged(status, 'job-1', 'running', FAILED)
    expect(status.pending).toMatchObject({ jobState: 'running', retryMessage: loading })
    // the same message again changes nothing
    const again = jobChanged(status, 'job-1', 'running', FAILED)
    expect(again).toBe(status)
    // a retry the worker gave no reason for, or the end, clears it
    expect(jobChanged(status, 'job-1', 'retrying', FAILED).pending?.retryMessage).toBeNull()
    expect(jobChanged(status, 'job-1', 'succeeded', FAILED).pending?.retryMessage).toBeNull()
    // a new request starts without it
    expect(asked(status, 700, t0 + 1000).pending?.retryMessage).toBeNull()
    // a polled job's state alone (no worker message) never shows the failure text as a reason
    expect(jobChanged(running('job-1'), 'job-1', 'retrying', FAILED).pending?.retryMessage).toBeNull()
  })

  it('a refused request (an error before the answer) ends it without a job', () => {
    const status = refused(asked(idleSummary, 700, t0))
    expect(status).toEqual(idleSummary)
    // an error once the job is known is not about the request
    const answered = running('job-1')
    expect(refused(answered)).toEqual(answered)
  })

  it('takes the speech engine’s errors for no refusal', () => {
    for (const code of ['no_engine', 'engine_unavailable', 'engine_rejected', 'engine_timeout', 'engine_error', 'bad_audio', 'store_failed']) {
      expect(refusesRequest(code)).toBe(false)
    }
    for (const code of ['empty_transcript', 'transcript_too_long', 'invalid_message', 'internal']) expect(refusesRequest(code)).toBe(true)
  })
})

describe('asking again: the newest request wins', () => {
  it('ignores the old job once asked again, however late its result comes', () => {
    // job-1 waits past the bound; the user asks again and the server names job-2
    let status = asked(running('job-1'), 900, t0 + 80_000)
    status = jobChanged(status, 'job-2', 'queued', FAILED)
    expect(status.pending?.jobId).toBe('job-2')

    // the queue moves: job-1 runs and finishes first
    status = jobChanged(status, 'job-1', 'running', FAILED)
    expect(status.pending).toMatchObject({ jobId: 'job-2', jobState: 'queued' })
    expect(acceptsResult(status, 'job-1')).toBe(false)
    status = jobChanged(status, 'job-1', 'succeeded', FAILED)
    // a failure of the old job is no failure of this request either
    expect(jobChanged(status, 'job-1', 'dead', FAILED)).toEqual(status)

    expect(acceptsResult(status, 'job-2')).toBe(true)
    status = resultShown(status)
    // and after the new result, the old one is still ignored
    expect(acceptsResult(status, 'job-1')).toBe(false)
  })

  it('ignores the old job even when it finishes before the server answered the new request', () => {
    let status = asked(running('job-1'), 900, t0 + 80_000)
    expect(acceptsResult(status, 'job-1')).toBe(false)
    status = jobChanged(status, 'job-1', 'succeeded', FAILED)
    expect(status.pending).toMatchObject({ jobId: null, jobState: 'queued' })
    status = jobChanged(status, 'job-2', 'queued', FAILED)
    expect(status.pending?.jobId).toBe('job-2')
  })

  it('when asked again before the first answer came, takes only the answer to the newest request', () => {
    let status = asked(asked(idleSummary, 700, t0), 900, t0 + 80_000)
    expect(status.unanswered).toBe(2)
    // answers come in the order of the requests: the first names the old job
    status = jobChanged(status, 'job-1', 'queued', FAILED)
    expect(status.pending?.jobId).toBeNull()
    expect(acceptsResult(status, 'job-1')).toBe(false)
    status = jobChanged(status, 'job-2', 'queued', FAILED)
    expect(status.pending?.jobId).toBe('job-2')
    expect(status.unanswered).toBe(0)
  })

  it('when the old request was refused and the new one answered, follows the new one', () => {
    let status = asked(asked(idleSummary, 700, t0), 900, t0 + 80_000)
    status = refused(status)
    expect(status.pending).not.toBeNull()
    status = jobChanged(status, 'job-2', 'queued', FAILED)
    expect(status.pending?.jobId).toBe('job-2')
  })

  it('after the socket dropped, the lost answers are not waited for: the next answer is the next request’s', () => {
    let status = asked(idleSummary, 700, t0)
    status = socketLost(status)
    expect(status.unanswered).toBe(0)
    expect(status.pending?.jobId).toBeNull()
    // a job the server may have made before the drop is not taken for this one
    expect(jobChanged(status, 'job-1', 'succeeded', FAILED)).toEqual(status)
    // asking again on the new socket is answered
    status = jobChanged(asked(status, 700, t0 + 80_000), 'job-2', 'queued', FAILED)
    expect(status.pending?.jobId).toBe('job-2')
  })
})

describe('useSummaryDelayed', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(t0)
  })
  afterEach(() => vi.useRealTimers())

  it('turns true when the bound passes, and false again for a new request', () => {
    const { result, rerender } = renderHook(({ status }) => useSummaryDelayed(status.pending), {
      initialProps: { status: running('job-1', 700, t0) },
    })
    expect(result.current).toBe(false)
    act(() => {
      vi.advanceTimersByTime(69_000)
    })
    expect(result.current).toBe(false)
    act(() => {
      vi.advanceTimersByTime(1_000)
    })
    expect(result.current).toBe(true)

    rerender({ status: asked(running('job-1', 700, t0), 700, Date.now()) })
    expect(result.current).toBe(false)
    act(() => {
      vi.advanceTimersByTime(70_000)
    })
    expect(result.current).toBe(true)
  })

  it('turns true when the clock jumped past the bound while timers were held back', () => {
    const { result } = renderHook(() => useSummaryDelayed(running('job-1', 700, t0).pending))
    // a background tab: the clock moves on, the timer fires late
    vi.setSystemTime(t0 + 300_000)
    act(() => {
      vi.advanceTimersByTime(70_000)
    })
    expect(result.current).toBe(true)
  })

  it('stays false once the result is there', () => {
    const { result } = renderHook(() => useSummaryDelayed(resultShown(running('job-1', 700, t0)).pending))
    act(() => {
      vi.advanceTimersByTime(600_000)
    })
    expect(result.current).toBe(false)
  })
})
