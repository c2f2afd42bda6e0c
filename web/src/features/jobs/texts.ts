import type { JobState } from './api'

/** How a job's state reads on screen. */
export const jobStateTexts: Record<JobState, string> = {
  queued: 'In de wachtrij',
  running: 'Bezig',
  retrying: 'Mislukt, er volgt een nieuwe poging',
  succeeded: 'Klaar',
  failed: 'Mislukt',
  dead: 'Mislukt, ook na herhaalde pogingen',
}

export function jobStateText(state: JobState): string {
  return jobStateTexts[state]
}
