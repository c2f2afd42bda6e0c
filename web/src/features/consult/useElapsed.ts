import { useEffect, useState } from 'react'
import { nextElapsed, PROGRESS_TICK_MS } from './progress'
import { delayedAfterMs, isDelayed, type PendingSummary } from './summaryRequest'

/** Seconds of estimate that have passed while `running`, advanced one step every tick; back to 0 when `reset` changes. */
export function useProgressElapsed(running: boolean, reset?: unknown): number {
  const [elapsed, setElapsed] = useState(0)
  useEffect(() => {
    if (!running) return
    setElapsed(0)
    const timer = setInterval(() => setElapsed(nextElapsed), PROGRESS_TICK_MS)
    return () => clearInterval(timer)
  }, [running, reset])
  return elapsed
}

/**
 * Whether the summary being made has waited past its bound (`delayedAfterMs`): a timer set for
 * the moment the bound passes, measured on the clock, so a tab the browser slowed down still
 * notices once it runs again.
 */
export function useSummaryDelayed(pending: PendingSummary | null): boolean {
  const [now, setNow] = useState(() => Date.now())
  const askedAt = pending && !pending.done ? pending.askedAt : null
  const length = pending?.transcriptLength ?? 0
  useEffect(() => {
    if (askedAt === null) return
    const bound = askedAt + delayedAfterMs(length)
    if (now >= bound) return
    // armed again after each firing, in case a timer fires a moment before the clock says so
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, bound - Date.now()))
    return () => clearTimeout(timer)
  }, [askedAt, length, now])
  return isDelayed(pending, now)
}

/** Whole seconds counted while `running`; back to 0 when `reset` changes. */
export function useRecordingSeconds(running: boolean, reset: unknown): number {
  const [seconds, setSeconds] = useState(0)
  useEffect(() => setSeconds(0), [reset])
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000)
    return () => clearInterval(timer)
  }, [running])
  return seconds
}

/** 75 → "01:15". */
export function clock(seconds: number): string {
  const m = Math.floor(seconds / 60)
  const s = seconds % 60
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
}
