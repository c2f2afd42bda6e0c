import { describe, expect, it } from 'vitest'
import { isFinished, nextPoll, summaryOutcome, type JobState, type SummaryOutcome } from './api'
import { jobStateText } from './texts'

const now = Date.parse('2026-11-21T10:00:00Z')
const job = (state: JobState, runAt = '2026-11-21T10:00:00Z') => ({ state, runAt })

describe('polling a job', () => {
  it('asks every second while the job waits or runs', () => {
    expect(nextPoll(job('queued'), now)).toBe(1000)
    expect(nextPoll(job('running'), now)).toBe(1000)
    expect(nextPoll(undefined, now)).toBe(1000)
  })

  it('asks again when a retry is due, within 1 and 30 seconds', () => {
    expect(nextPoll(job('retrying', '2026-11-21T10:00:05Z'), now)).toBe(5000)
    expect(nextPoll(job('retrying', '2026-11-21T10:10:00Z'), now)).toBe(30_000)
    expect(nextPoll(job('retrying', '2026-11-21T09:59:00Z'), now)).toBe(1000)
  })

  it('stops once the job is finished', () => {
    for (const state of ['succeeded', 'failed', 'dead'] as const) {
      expect(isFinished(job(state))).toBe(true)
      expect(nextPoll(job(state), now)).toBe(false)
    }
    expect(isFinished(job('retrying'))).toBe(false)
  })

  it('names every state in Dutch', () => {
    expect(jobStateText('queued')).toBe('In de wachtrij')
    expect(jobStateText('dead')).toBe('Mislukt, ook na herhaalde pogingen')
  })
})

describe('a job\'s result', () => {
  it('is a summary job\'s outcome only when it names its summary', () => {
    const outcome: SummaryOutcome = { summaryId: 's1', consultId: null, template: 'soap', engine: 'rules', engineMillis: 12, note: { episodes: [] } }
    expect(summaryOutcome({ result: outcome })?.note).toEqual({ episodes: [] })
    expect(summaryOutcome({ result: { jobsDeleted: 3 } })).toBeNull()
    expect(summaryOutcome({ result: null })).toBeNull()
    expect(summaryOutcome({})).toBeNull()
  })
})
