/**
 * What the page being shown tells the feedback widget, which lives in the app frame outside it:
 * the consult it shows (so feedback sent from there names that consult), and when to show the
 * hint bubble. A small store outside React, read with `useFeedbackPage`.
 */
import { useSyncExternalStore } from 'react'

export interface FeedbackPage {
  /** The consult the page shows, if any. */
  consultId: string | null
  /** Counts the hints asked for: each new one shows the bubble. */
  hints: number
}

let current: FeedbackPage = { consultId: null, hints: 0 }
const listeners = new Set<() => void>()

function change(next: FeedbackPage) {
  if (next.consultId === current.consultId && next.hints === current.hints) return
  current = next
  for (const listener of listeners) listener()
}

/** The page shows consult `consultId` (null: none, e.g. when it is left). */
export function setFeedbackConsult(consultId: string | null) {
  change({ ...current, consultId })
}

/** Shows the hint bubble beside the feedback button (for `FEEDBACK_HINT_MS`). */
export function showFeedbackHint() {
  change({ ...current, hints: current.hints + 1 })
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

export function feedbackPage(): FeedbackPage {
  return current
}

export function useFeedbackPage(): FeedbackPage {
  return useSyncExternalStore(subscribe, feedbackPage, feedbackPage)
}
