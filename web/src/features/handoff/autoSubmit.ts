import { useEffect, useRef } from 'react'

/** The page posts its form this long after the data arrived. */
export const AUTO_SUBMIT_DELAY_MS = 300

/** What the form posts: to `redirectUrl`, the single field `bricks-data` holding `data`. */
export interface HandOffTarget {
  redirectUrl: string
  data: string
}

/** The form's target, only when both the return address and the data are there. */
export function handOffTarget(answer: { redirectUrl?: string | null; data?: string | null } | null | undefined): HandOffTarget | null {
  const redirectUrl = answer?.redirectUrl
  const data = answer?.data
  if (!redirectUrl || !data) return null
  return { redirectUrl, data }
}

/**
 * Calls `submit` once, `delayMs` after a target is there; never without one, and never twice (not
 * on re-renders, not when React runs the effect twice in strict mode).
 */
export function useAutoSubmitOnce(target: HandOffTarget | null, submit: (target: HandOffTarget) => void, delayMs = AUTO_SUBMIT_DELAY_MS) {
  const submitted = useRef(false)
  const submitRef = useRef(submit)
  useEffect(() => {
    submitRef.current = submit
  })
  const redirectUrl = target?.redirectUrl
  const data = target?.data
  useEffect(() => {
    if (!redirectUrl || !data || submitted.current) return
    const timer = setTimeout(() => {
      if (submitted.current) return
      submitted.current = true
      submitRef.current({ redirectUrl, data })
    }, delayMs)
    return () => clearTimeout(timer)
  }, [redirectUrl, data, delayMs])
}
