import { describe, expect, it } from 'vitest'
import {
  consultReducer,
  initialConsultState,
  isTyping,
  summaryRequestOf,
  transcriptText,
  type ConsultAction,
  type ConsultState,
} from './consultSession'
import type { TranscriptLine } from './connection'
import { emptyEpisode, type Template } from './result'

const FAILED = 'De samenvatting kon niet worden gemaakt.'
const t0 = Date.parse('2026-11-23T10:00:00Z')

function run(state: ConsultState, ...actions: ConsultAction[]): ConsultState {
  return actions.reduce(consultReducer, state)
}

function line(idx: number, sentence: string): TranscriptLine {
  return { idx, sentence, speaker: 'zorgverlener' }
}

/** A started session on `template` whose socket is ready. */
function live(template: Template = 'soap', engine: string | null = 'whisper'): ConsultState {
  return run(
    initialConsultState(template, 'normal'),
    { type: 'start' },
    { type: 'sessionOpened' },
    { type: 'status', status: { kind: 'connecting' } },
    { type: 'status', status: { kind: 'ready' } },
    { type: 'ready', engine },
  )
}

/** `live()` with the microphone open and a sentence heard. */
function recording(template: Template = 'soap'): ConsultState {
  return run(live(template), { type: 'micAsking' }, { type: 'micOpened', analyser: null }, {
    type: 'transcript',
    completed: [line(0, 'Ik heb keelpijn.')],
    buffer: '',
    dictating: template === 'dictation' || template === 'radiology',
  })
}

const soep = { episodes: [{ subjective: 'Keelpijn', objective: 'Rode keel', diagnosis: 'Faryngitis', plan: 'Paracetamol' }] }

describe('starting a session', () => {
  it('goes from idle over starting to live, clearing an earlier problem', () => {
    const failed = run(initialConsultState('soap', 'normal'), { type: 'start' }, { type: 'sessionFailed' })
    expect(failed.phase).toBe('idle')
    expect(failed.fatal).toBe('De opname kon niet worden gestart. Controleer je internetverbinding en probeer het opnieuw.')

    const starting = consultReducer(failed, { type: 'start' })
    expect(starting.phase).toBe('starting')
    expect(starting.fatal).toBeNull()
    expect(consultReducer(starting, { type: 'sessionOpened' }).phase).toBe('live')
  })

  it('knows no engine until the server says ready', () => {
    const opened = run(initialConsultState('soap', 'normal'), { type: 'start' }, { type: 'sessionOpened' })
    expect(opened.engine).toBeUndefined()
    expect(isTyping(opened)).toBe(false)
  })
})

describe('ready', () => {
  it('with an engine: the engine is known and the microphone is not yet touched (the hook asks for it)', () => {
    const state = live('soap', 'whisper')
    expect(state.engine).toBe('whisper')
    expect(state.mic).toBe('off')
    expect(isTyping(state)).toBe(false)
  })

  it('without an engine: the clinician types, and an open microphone is closed', () => {
    const opened = run(live(), { type: 'micAsking' }, { type: 'micOpened', analyser: null })
    expect(opened.recording).toBe(true)
    const state = consultReducer(opened, { type: 'ready', engine: null })
    expect(state.engine).toBeNull()
    expect(state.mic).toBe('off')
    expect(state.recording).toBe(false)
    expect(isTyping(state)).toBe(true)
  })

  it("a reconnect's ready keeps the microphone that records", () => {
    const before = recording()
    const state = run(before, { type: 'status', status: { kind: 'reconnecting', attempt: 0 } }, { type: 'status', status: { kind: 'ready' } }, { type: 'ready', engine: 'whisper' })
    expect(state.mic).toBe('on')
    expect(state.recording).toBe(true)
    expect(state.transcript).toBe(before.transcript)
  })

  it("the socket's no_engine error also turns to typing", () => {
    const state = consultReducer(live(), { type: 'noEngine' })
    expect(isTyping(state)).toBe(true)
  })
})

describe('the microphone', () => {
  it('asking clears an earlier problem; opening records', () => {
    const refusedOnce = run(live(), { type: 'micAsking' }, { type: 'micFailed', problem: 'micDenied' })
    const asking = consultReducer(refusedOnce, { type: 'micAsking' })
    expect(asking.mic).toBe('asking')
    expect(asking.micProblem).toBeNull()
    const on = consultReducer(asking, { type: 'micOpened', analyser: null })
    expect(on.mic).toBe('on')
    expect(on.recording).toBe(true)
  })

  it('refused: says why and the clinician types', () => {
    const state = run(live(), { type: 'micAsking' }, { type: 'micFailed', problem: 'micDenied' })
    expect(state.mic).toBe('failed')
    expect(state.micProblem).toBe('micDenied')
    expect(state.recording).toBe(false)
    expect(isTyping(state)).toBe(true)
  })

  it('pause and go on', () => {
    const paused = consultReducer(recording(), { type: 'togglePause' })
    expect(paused.recording).toBe(false)
    expect(consultReducer(paused, { type: 'togglePause' }).recording).toBe(true)
  })
})

describe('the transcript', () => {
  it('merges sentences by their number, in order, and keeps the words in progress', () => {
    const state = run(
      live(),
      { type: 'transcript', completed: [line(1, 'Twee.')], buffer: 'dr', dictating: false },
      { type: 'transcript', completed: [], buffer: 'drie', dictating: false },
      { type: 'transcript', completed: [line(0, 'Een.'), line(1, 'Twee!')], buffer: '', dictating: false },
    )
    expect(state.transcript.lines.map((l) => l.sentence)).toEqual(['Een.', 'Twee!'])
    expect(state.transcript.buffer).toBe('')
    expect(transcriptText(state)).toBe('Een. Twee!')
  })

  it('dictating: each finished sentence is appended once, also when a resumed session sends it again', () => {
    const state = run(
      live('dictation'),
      { type: 'transcript', completed: [line(1, 'Twee.'), line(0, 'Een.')], buffer: 'Dr', dictating: true },
      { type: 'transcript', completed: [line(0, 'Een.'), line(1, 'Twee.'), line(2, 'Drie.')], buffer: '', dictating: true },
    )
    expect(state.form.dictation).toBe('Een. Twee. Drie.')
  })

  it('the last words in progress can be put in the dictation by hand', () => {
    const state = run(
      live('dictation'),
      { type: 'transcript', completed: [line(0, 'Een.')], buffer: 'en de rest', dictating: true },
      { type: 'fillLastSentences' },
    )
    expect(state.form.dictation).toBe('Een. en de rest')
    expect(state.transcript.buffer).toBe('')
  })

  it('typed text is what is summarised when the clinician types', () => {
    const state = run(live('soap', null), { type: 'typed', text: 'Patiënt heeft hoofdpijn.' })
    expect(transcriptText(state)).toBe('Patiënt heeft hoofdpijn.')
    expect(summaryRequestOf(state, { template: 'soap', flavour: 'normal', beta: false, precision: 'high', episodeCount: 2 })).toEqual({
      template: 'soap',
      flavour: 'normal',
      modelSize: 'medium',
      precision: 'high',
      episodeCount: 2,
      transcript: 'Patiënt heeft hoofdpijn.',
    })
    // listening: the server has the transcript, none goes along
    expect(summaryRequestOf(recording(), { template: 'soap', flavour: 'normal', beta: true, precision: 'medium', episodeCount: 1 })).toEqual({
      template: 'soap',
      flavour: 'normal',
      modelSize: 'large',
      precision: 'medium',
      episodeCount: 1,
    })
  })
})

describe('a summary', () => {
  it('is asked for, follows its job and fills the SOEP note', () => {
    const askedFor = consultReducer(recording(), { type: 'asked', transcriptLength: 16, now: t0 })
    expect(askedFor.summary.pending).toMatchObject({ jobId: null, jobState: 'queued', transcriptLength: 16, askedAt: t0 })
    const running = run(askedFor, { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED }, { type: 'jobChanged', id: 'job-1', state: 'running', message: FAILED })
    expect(running.summary.pending).toMatchObject({ jobId: 'job-1', jobState: 'running' })

    const shown = consultReducer(running, { type: 'summarization', jobId: 'job-1', template: 'soap', result: soep, flavour: 'normal' })
    expect(shown.form.episodes).toMatchObject(soep.episodes)
    expect(shown.summary.pending).toMatchObject({ done: true, jobState: 'succeeded' })
    expect(shown.keptChanges).toBe(0)
    expect(consultReducer(shown, { type: 'summaryFinished' }).summary.pending).toBeNull()
  })

  it('keeps what was written while waiting, and counts that for the message', () => {
    const running = run(
      recording(),
      { type: 'asked', transcriptLength: 16, now: t0 },
      { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED },
      { type: 'editForm', change: (form) => ({ ...form, episodes: [{ ...form.episodes[0], plan: 'Zelf geschreven' }] }) },
    )
    const shown = consultReducer(running, { type: 'summarization', jobId: 'job-1', template: 'soap', result: soep, flavour: 'normal' })
    expect(shown.form.episodes[0]).toMatchObject({ ...soep.episodes[0], plan: 'Zelf geschreven' })
    expect(shown.keptChanges).toBe(1)
  })

  it('the newest request wins: the earlier job is ignored whenever its events and result arrive', () => {
    const first = run(recording(), { type: 'asked', transcriptLength: 16, now: t0 }, { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED })
    // delayed: asked again; the first job's result still comes before the answer to the second request
    const again = run(first, { type: 'asked', transcriptLength: 30, now: t0 + 80_000 })
    const late = run(
      again,
      { type: 'summarization', jobId: 'job-1', template: 'soap', result: soep, flavour: 'normal' },
      { type: 'jobChanged', id: 'job-1', state: 'failed', message: 'kapot' },
    )
    expect(late.form).toBe(again.form)
    expect(late.summary.pending).toMatchObject({ jobId: null, askedAt: t0 + 80_000 })
    expect(late.summary.failure).toBeNull()

    const second = run(late, { type: 'jobChanged', id: 'job-2', state: 'queued', message: FAILED })
    expect(second.summary.pending?.jobId).toBe('job-2')
    const newer = { episodes: [{ subjective: 'Keelpijn sinds gisteren', objective: '', diagnosis: '', plan: '' }] }
    const shown = consultReducer(second, { type: 'summarization', jobId: 'job-2', template: 'soap', result: newer, flavour: 'normal' })
    expect(shown.form.episodes[0].subjective).toBe('Keelpijn sinds gisteren')
    // the first job's result, polled late, changes nothing
    expect(consultReducer(shown, { type: 'polledJob', id: 'job-1', state: 'succeeded', result: soep, flavour: 'normal' })).toBe(shown)
  })

  it("a failed job shows the worker's message (socket) or the Dutch one (polled)", () => {
    const running = run(recording(), { type: 'asked', transcriptLength: 16, now: t0 }, { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED })
    const socket = consultReducer(running, { type: 'jobChanged', id: 'job-1', state: 'failed', message: 'Het taalmodel antwoordde niet.' })
    expect(socket.summary).toMatchObject({ pending: null, failure: 'Het taalmodel antwoordde niet.' })
    const polled = consultReducer(running, { type: 'polledJob', id: 'job-1', state: 'dead', result: undefined, flavour: 'normal' })
    expect(polled.summary).toMatchObject({ pending: null, failure: FAILED })
  })

  it("a job retried while the model loads shows the worker's reason, and the note still comes", () => {
    const loading = 'Het taalmodel wordt nog geladen; de samenvatting wordt zo opnieuw geprobeerd.'
    const running = run(recording(), { type: 'asked', transcriptLength: 16, now: t0 }, { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED })
    const waiting = consultReducer(running, { type: 'jobChanged', id: 'job-1', state: 'retrying', message: loading, workerMessage: loading })
    expect(waiting.summary).toMatchObject({ pending: { jobState: 'retrying', retryMessage: loading }, failure: null })
    const polled = consultReducer(waiting, { type: 'polledJob', id: 'job-1', state: 'retrying', result: undefined, flavour: 'normal' })
    expect(polled.summary.pending?.retryMessage).toBeNull()
    const shown = consultReducer(waiting, { type: 'summarization', jobId: 'job-1', template: 'soap', result: soep, flavour: 'normal' })
    expect(shown.form.episodes[0].subjective).toBe('Keelpijn')
  })

  it('a polled result of the newest job fills the note like the event does', () => {
    const running = run(
      recording(),
      { type: 'asked', transcriptLength: 16, now: t0 },
      { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED },
      { type: 'status', status: { kind: 'reconnecting', attempt: 0 } },
    )
    const shown = consultReducer(running, { type: 'polledJob', id: 'job-1', state: 'succeeded', result: soep, flavour: 'normal' })
    expect(shown.form.episodes).toMatchObject(soep.episodes)
    expect(shown.summary.pending?.done).toBe(true)
  })

  it('a refused request ends the wait; a speech error does not', () => {
    const askedFor = consultReducer(recording(), { type: 'asked', transcriptLength: 16, now: t0 })
    expect(consultReducer(askedFor, { type: 'socketError', code: 'bad_audio' }).summary).toBe(askedFor.summary)
    const unavailable = consultReducer(askedFor, { type: 'socketError', code: 'engine_unavailable' })
    expect(unavailable.engineFailed).toBe(true)
    expect(unavailable.summary).toBe(askedFor.summary)
    expect(consultReducer(askedFor, { type: 'socketError', code: 'rate_limited' }).summary.pending).toBeNull()
  })

  it('a summary for a template the page has left ends the wait without filling anything', () => {
    const running = run(recording(), { type: 'asked', transcriptLength: 16, now: t0 }, { type: 'jobChanged', id: 'job-1', state: 'queued', message: FAILED })
    const moved = consultReducer(running, { type: 'templateChanged', template: 'report', flavour: 'normal' })
    const state = consultReducer(moved, { type: 'summarization', jobId: 'job-1', template: 'soap', result: soep, flavour: 'normal' })
    expect(state.form).toBe(moved.form)
    expect(state.summary.pending).toBeNull()
  })

  it('a dropped socket forgets the answers it owed; the request itself stays', () => {
    const askedFor = consultReducer(recording(), { type: 'asked', transcriptLength: 16, now: t0 })
    expect(askedFor.summary.unanswered).toBe(1)
    const dropped = consultReducer(askedFor, { type: 'status', status: { kind: 'reconnecting', attempt: 0 } })
    expect(dropped.summary.unanswered).toBe(0)
    expect(dropped.summary.pending).toEqual(askedFor.summary.pending)
  })
})

describe('the socket closing and Opnieuw', () => {
  it('a closed socket stops recording and says why', () => {
    const state = consultReducer(recording(), { type: 'status', status: { kind: 'closed', code: 4409, reason: '' } })
    expect(state.recording).toBe(false)
    expect(state.fatal).toBe('Deze sessie is op een andere plek geopend, bijvoorbeeld in een ander tabblad. Hier is de opname gestopt.')
    const unknown = consultReducer(recording(), { type: 'status', status: { kind: 'closed', code: 4000, reason: '' } })
    expect(unknown.fatal).toBe('De verbinding met de server kon niet worden hersteld. Druk op Opnieuw om een nieuwe opname te starten.')
  })

  it('Opnieuw empties everything and starts the clock again', () => {
    const busy = run(recording(), { type: 'typed', text: 'x' }, { type: 'asked', transcriptLength: 16, now: t0 }, { type: 'backlog', full: true })
    const state = consultReducer(busy, { type: 'reset', template: 'soap', flavour: 'normal' })
    expect(state).toEqual({ ...initialConsultState('soap', 'normal'), generation: busy.generation + 1 })
  })
})

describe('the classic routing (summary calls, not the socket)', () => {
  const askedByCall = (state: ConsultState) => consultReducer(state, { type: 'asked', transcriptLength: 20, now: t0, onSocket: false })

  it('fills the note the call answered with', () => {
    const asked = askedByCall(live('soap', null))
    expect(asked.summary.unanswered).toBe(0)
    const done = consultReducer(asked, { type: 'callAnswered', result: soep, flavour: 'normal' })
    expect(done.form.episodes).toMatchObject(soep.episodes)
    expect(done.summary.pending?.done).toBe(true)
    // an answer without a request waiting fills nothing
    expect(consultReducer(live('soap', null), { type: 'callAnswered', result: soep, flavour: 'normal' }).form.episodes[0].subjective).toBe('')
  })

  it('follows the job the call named, polled to its note, and ignores socket answers meanwhile', () => {
    const named = consultReducer(askedByCall(live('soap', null)), { type: 'callJob', jobId: 'j1' })
    expect(named.summary.pending?.jobId).toBe('j1')
    expect(consultReducer(named, { type: 'jobChanged', id: 'other', state: 'queued', message: FAILED }).summary).toBe(named.summary)
    const done = consultReducer(named, { type: 'polledJob', id: 'j1', state: 'succeeded', result: soep, flavour: 'normal' })
    expect(done.form.episodes).toMatchObject(soep.episodes)
  })

  it('ends with the message of a failed call', () => {
    const failed = consultReducer(askedByCall(live('soap', null)), { type: 'callFailed', message: 'Te veel aanvragen.' })
    expect(failed.summary).toEqual({ pending: null, failure: 'Te veel aanvragen.', unanswered: 0 })
  })
})

describe('the note kept with its consult', () => {
  const edit = (plan: string): ConsultAction => ({
    type: 'editForm',
    change: (form) => ({ ...form, episodes: [{ ...form.episodes[0], plan }] }),
  })

  it('counts as edited once the clinician changes it, not when a summary fills it', () => {
    const filled = run(
      recording(),
      { type: 'asked', transcriptLength: 16, now: t0 },
      { type: 'jobChanged', id: 'j1', state: 'queued', message: FAILED },
      { type: 'summarization', jobId: 'j1', template: 'soap', result: soep, flavour: 'normal' },
    )
    expect(filled.form.episodes[0].plan).toBe('Paracetamol')
    expect(filled.edited).toBe(false)
    expect(filled.resultsShown).toBe(1)
    // a change that changes nothing is no edit
    expect(consultReducer(filled, { type: 'editForm', change: (form) => form })).toBe(filled)
    expect(run(filled, edit('Zelf geschreven')).edited).toBe(true)
  })

  it('names the consult once, and forgets it (and the edits) on Opnieuw but not on a template change', () => {
    const named = run(live(), { type: 'consultNamed', consultId: 'c1' }, edit('Rust'))
    expect(named.consultId).toBe('c1')
    expect(consultReducer(named, { type: 'consultNamed', consultId: 'c1' })).toBe(named)
    const other = consultReducer(named, { type: 'templateChanged', template: 'report', flavour: 'normal' })
    expect(other).toMatchObject({ consultId: 'c1', edited: false })
    const reset = consultReducer(named, { type: 'reset', template: 'soap', flavour: 'normal' })
    expect(reset).toMatchObject({ consultId: null, edited: false, resultsShown: 0 })
  })

  it('puts a restored note back as edited, unless something was written first or it is of another template', () => {
    const stored = { ...initialConsultState('soap', 'normal').form, episodes: [{ ...emptyEpisode, subjective: 'Keelpijn', plan: 'Rust' }] }
    const restored = consultReducer(initialConsultState('soap', 'normal'), { type: 'restored', consultId: 'c1', form: stored })
    expect(restored).toMatchObject({ consultId: 'c1', edited: true, form: stored })

    const written = run(initialConsultState('soap', 'normal'), edit('Eerst geschreven'), { type: 'restored', consultId: 'c1', form: stored })
    expect(written.form.episodes[0].plan).toBe('Eerst geschreven')
    expect(written.consultId).toBe('c1')

    const report = consultReducer(initialConsultState('report', 'normal'), { type: 'restored', consultId: 'c1', form: stored })
    expect(report).toMatchObject({ consultId: 'c1', edited: false })
    expect(report.form.template).toBe('report')

    const none = consultReducer(initialConsultState('soap', 'normal'), { type: 'restored', consultId: 'c2', form: null })
    expect(none).toMatchObject({ consultId: 'c2', edited: false })
  })

  it('types the conversation before Start when no speech engine is known', () => {
    const known = consultReducer(initialConsultState('soap', 'normal'), { type: 'noEngine' })
    expect(known.phase).toBe('idle')
    expect(isTyping(known)).toBe(true)
    expect(isTyping(consultReducer(known, { type: 'start' }))).toBe(true)
  })
})
