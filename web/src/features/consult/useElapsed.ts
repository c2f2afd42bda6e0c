import { useEffect, useState } from 'react'
import { nextElapsed, PROGRESS_TICK_MS } from './progress'

/** Seconds of estimate that have passed while `running`, advanced one step every tick. */
export function useProgressElapsed(running: boolean): number {
  const [elapsed, setElapsed] = useState(0)
  useEffect(() => {
    if (!running) return
    setElapsed(0)
    const timer = setInterval(() => setElapsed(nextElapsed), PROGRESS_TICK_MS)
    return () => clearInterval(timer)
  }, [running])
  return elapsed
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
