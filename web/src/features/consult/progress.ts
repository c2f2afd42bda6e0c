/** The summary's progress bar: an estimate, since the server does not report progress. */

/** Every this many milliseconds the bar advances one step. */
export const PROGRESS_TICK_MS = 500
/** One step is half a second of the estimated time. */
export const PROGRESS_STEP_SECONDS = 0.5
/** Characters of transcript per second of summarising. */
export const CHARS_PER_SECOND = 70
/** The bar waits here until the result arrives. */
export const PROGRESS_CAP = 0.95

/** The estimated time in seconds for a transcript of `length` characters (at least one step). */
export function estimatedSeconds(length: number): number {
  return Math.max(PROGRESS_STEP_SECONDS, length / CHARS_PER_SECOND)
}

/** The elapsed estimate after one more tick. */
export function nextElapsed(elapsed: number): number {
  return elapsed + PROGRESS_STEP_SECONDS
}

/** The bar's fill between 0 and 1: elapsed over estimate, held below full until `done`. */
export function progressFraction(elapsed: number, transcriptLength: number, done: boolean): number {
  if (done) return 1
  return Math.min(PROGRESS_CAP, elapsed / estimatedSeconds(transcriptLength))
}
