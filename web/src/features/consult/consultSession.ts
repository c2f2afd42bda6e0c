/**
 * The live consult's session as one state and the actions that change it: the session and its
 * socket, the microphone, the transcript, the result's fields and the summary being made. Pure:
 * the socket, the microphone and the toasts are `useConsultSession`'s business, which dispatches
 * what happened and acts on what changed.
 */
import type { ConnectionStatus, SummarizeRequest, TranscriptLine } from './connection'
import type { MicrophoneProblem } from './microphones'
import type { MicrophoneState } from './microphoneFlow'
import { typesTranscript } from './microphoneFlow'
import { appendSentence, emptyForm, formFromResult, keepingChanges, type ConsultForm, type Flavour, type SummaryResult, type Template } from './result'
import { acceptsResult, asked, callFailed, finished, idleSummary, jobChanged, jobNamed, refused, refusesRequest, resultShown, socketLost, type SummaryStatus } from './summaryRequest'
import { consultTexts as t } from './texts'
import type { JobState } from '@/features/jobs'

/** Before Start, while the session opens, and once its socket runs. */
export type Phase = 'idle' | 'starting' | 'live'

/** The live transcript: sentences merged by their number, and the words of the sentence in progress. */
export interface Transcript {
  lines: TranscriptLine[]
  buffer: string
}

export const emptyTranscript: Transcript = { lines: [], buffer: '' }

export interface ConsultState {
  phase: Phase
  /** Frames go to the socket (not paused, microphone open). */
  recording: boolean
  status: ConnectionStatus | null
  /** The session's speech engine: unknown until `ready`, null when there is none. */
  engine: string | null | undefined
  engineFailed: boolean
  mic: MicrophoneState
  micProblem: MicrophoneProblem | null
  /** The open microphone's signal, for the waveform. */
  analyser: AnalyserNode | null
  transcript: Transcript
  /** Sentences already appended to the dictation (a resumed session sends them all again). */
  dictated: readonly number[]
  /** The conversation as typed when there is nothing to listen with. */
  typed: string
  form: ConsultForm
  /** The result's fields when the newest summary was asked for. */
  askedWith: ConsultForm | null
  summary: SummaryStatus
  /** Counts results that left fields as they were written while waiting (the page says so). */
  keptChanges: number
  fatal: string | null
  backlogFull: boolean
  /** Counts Opnieuw: the recording clock starts again. */
  generation: number
  /**
   * The consult on the server the note is kept with: the session's, one made for the note, or the
   * one a reload restored; null until there is one (and again after Opnieuw).
   */
  consultId: string | null
  /** The clinician has changed the note by hand since it was last empty (leaving then asks first). */
  edited: boolean
  /** Counts the summaries shown in the note. */
  resultsShown: number
}

/** Something the socket's server sent, or a polled job, as the state needs it. */
export type ConsultAction =
  | { type: 'templateChanged'; template: Template; flavour: Flavour }
  | { type: 'start' }
  | { type: 'sessionOpened' }
  | { type: 'sessionFailed' }
  | { type: 'reset'; template: Template; flavour: Flavour }
  | { type: 'status'; status: ConnectionStatus }
  | { type: 'backlog'; full: boolean }
  | { type: 'ready'; engine: string | null }
  | { type: 'noEngine' }
  | { type: 'socketError'; code: string }
  | { type: 'transcript'; completed: readonly TranscriptLine[]; buffer: string; dictating: boolean }
  | { type: 'micAsking' }
  | { type: 'micOpened'; analyser: AnalyserNode | null }
  | { type: 'micFailed'; problem: MicrophoneProblem }
  | { type: 'togglePause' }
  | { type: 'typed'; text: string }
  | { type: 'editForm'; change: (form: ConsultForm) => ConsultForm }
  | { type: 'fillLastSentences' }
  /** A summary was asked for: over the socket, or (`onSocket` false) by a call of the classic routing. */
  | { type: 'asked'; transcriptLength: number; now: number; onSocket?: boolean }
  /** The classic call answered with the note itself. */
  | { type: 'callAnswered'; result: SummaryResult; flavour: Flavour }
  /** The classic call answered with the job that makes the note (polled from then on). */
  | { type: 'callJob'; jobId: string }
  /** The classic call failed; `message` is the Dutch text shown. */
  | { type: 'callFailed'; message: string }
  /**
   * A `job` message; `message` is the Dutch text a failure shows, `workerMessage` the worker's own
   * text with the state (why a job is retried).
   */
  | { type: 'jobChanged'; id: string; state: JobState; message: string; workerMessage?: string | null }
  /** A `summarization` message. */
  | { type: 'summarization'; jobId: string; template: string; result: SummaryResult; flavour: Flavour }
  /** The newest request's job, polled while the socket is away or the summary is delayed. */
  | { type: 'polledJob'; id: string; state: JobState; result: SummaryResult | undefined; flavour: Flavour }
  | { type: 'summaryFinished' }
  /** The consult the note is kept with is known (a session opened, or one was made for the note). */
  | { type: 'consultNamed'; consultId: string }
  /** A reload found the consult and its stored note (null: none kept yet, or not of this template). */
  | { type: 'restored'; consultId: string; form: ConsultForm | null }

export function initialConsultState(template: Template, flavour: Flavour): ConsultState {
  return {
    phase: 'idle',
    recording: false,
    status: null,
    engine: undefined,
    engineFailed: false,
    mic: 'off',
    micProblem: null,
    analyser: null,
    transcript: emptyTranscript,
    dictated: [],
    typed: '',
    form: emptyForm(template, flavour),
    askedWith: null,
    summary: idleSummary,
    keptChanges: 0,
    fatal: null,
    backlogFull: false,
    generation: 0,
    consultId: null,
    edited: false,
    resultsShown: 0,
  }
}

export function mergeTranscript(current: Transcript, completed: readonly TranscriptLine[], buffer: string): Transcript {
  if (completed.length === 0) return { lines: current.lines, buffer }
  const byIdx = new Map(current.lines.map((l) => [l.idx, l]))
  for (const line of completed) byIdx.set(line.idx, line)
  return { lines: [...byIdx.values()].sort((a, b) => a.idx - b.idx), buffer }
}

/** Whether the clinician types the conversation (see `typesTranscript`). */
export function isTyping(state: ConsultState): boolean {
  return typesTranscript(state.engine, state.engineFailed, state.mic)
}

/** What was heard: the finished sentences and the one in progress. */
export function spokenText(transcript: Transcript): string {
  return [...transcript.lines.map((l) => l.sentence), transcript.buffer].filter((s) => s.trim() !== '').join(' ')
}

/** What a summary is made of: the typed conversation when the clinician types one, else what was heard. */
export function transcriptText(state: ConsultState): string {
  return isTyping(state) && state.typed.trim() !== '' ? state.typed : spokenText(state.transcript)
}

/** The choices on the page that go with a summary request. */
export interface SummaryChoices {
  template: Template
  flavour: Flavour
  beta: boolean
  precision: 'medium' | 'high'
  episodeCount: number
}

/** The `summarize` message's request; the typed conversation goes with it when it is what is summarised. */
export function summaryRequestOf(state: ConsultState, choices: SummaryChoices): SummarizeRequest {
  return {
    template: choices.template,
    flavour: choices.flavour,
    modelSize: choices.beta ? 'large' : 'medium',
    precision: choices.precision,
    episodeCount: choices.episodeCount,
    ...(isTyping(state) && state.typed.trim() !== '' ? { transcript: state.typed } : {}),
  }
}

/**
 * The state with the result of job `jobId` shown when it answers the newest request (see
 * `summaryRequest`); what was written in the result's fields while waiting stays.
 */
function withResult(state: ConsultState, jobId: string | null, result: SummaryResult, flavour: Flavour): ConsultState {
  // null: the classic call's own answer, which is always the newest request's (the page drops older calls' answers)
  const pending = state.summary.pending
  if (jobId === null ? !pending || pending.done : !acceptsResult(state.summary, jobId)) return state
  const filled = keepingChanges(state.askedWith ?? state.form, state.form, formFromResult(state.form, result, flavour))
  return {
    ...state,
    form: filled.form,
    keptChanges: filled.kept ? state.keptChanges + 1 : state.keptChanges,
    summary: resultShown(state.summary),
    resultsShown: state.resultsShown + 1,
  }
}

function withSummary(state: ConsultState, summary: SummaryStatus): ConsultState {
  return summary === state.summary ? state : { ...state, summary }
}

/** The microphone is closed (nothing to listen to, the socket closed for good, or Opnieuw). */
function withoutMicrophone(state: ConsultState): ConsultState {
  return { ...state, recording: false, analyser: null }
}

export function consultReducer(state: ConsultState, action: ConsultAction): ConsultState {
  switch (action.type) {
    case 'templateChanged':
      // changing the template resets the result (the consult stays: its note becomes the new one)
      return { ...state, form: emptyForm(action.template, action.flavour), dictated: [], edited: false }
    case 'start':
      return { ...state, micProblem: null, fatal: null, phase: 'starting' }
    case 'sessionOpened':
      return { ...state, phase: 'live' }
    case 'sessionFailed':
      return { ...state, phase: 'idle', fatal: t.sessionFailed }
    case 'reset':
      // a new consult: the next session or note makes one
      return { ...initialConsultState(action.template, action.flavour), keptChanges: state.keptChanges, generation: state.generation + 1 }
    case 'status': {
      const next = action.status
      // the socket's answers to what it was sent are gone with it
      const summary = next.kind === 'reconnecting' || next.kind === 'closed' ? socketLost(state.summary) : state.summary
      if (next.kind !== 'closed') return { ...state, status: next, summary }
      return { ...withoutMicrophone(state), status: next, summary, fatal: t.closed[next.code] ?? (next.reason || t.connectionLost) }
    }
    case 'backlog':
      return { ...state, backlogFull: action.full }
    case 'ready':
      // without an engine nothing listens: the clinician types the conversation
      if (action.engine === null) return { ...withoutMicrophone(state), engine: null, mic: 'off' }
      return { ...state, engine: action.engine }
    case 'noEngine':
      return { ...state, engine: null }
    case 'socketError': {
      const engineFailed = state.engineFailed || action.code === 'engine_unavailable'
      // a refused summary request has no job yet
      const summary = refusesRequest(action.code) ? refused(state.summary) : state.summary
      return engineFailed === state.engineFailed && summary === state.summary ? state : { ...state, engineFailed, summary }
    }
    case 'transcript': {
      const next: ConsultState = { ...state, transcript: mergeTranscript(state.transcript, action.completed, action.buffer) }
      if (!action.dictating || action.completed.length === 0) return next
      const fresh = action.completed.filter((l) => !state.dictated.includes(l.idx)).sort((a, b) => a.idx - b.idx)
      if (fresh.length === 0) return next
      return {
        ...next,
        dictated: [...state.dictated, ...fresh.map((l) => l.idx)],
        form: { ...state.form, dictation: fresh.reduce((text, l) => appendSentence(text, l.sentence), state.form.dictation) },
      }
    }
    case 'micAsking':
      return { ...state, mic: 'asking', micProblem: null }
    case 'micOpened':
      return { ...state, recording: true, mic: 'on', analyser: action.analyser }
    case 'micFailed':
      return { ...state, micProblem: action.problem, mic: 'failed' }
    case 'togglePause':
      return { ...state, recording: !state.recording }
    case 'typed':
      return { ...state, typed: action.text }
    case 'editForm': {
      const form = action.change(state.form)
      return form === state.form ? state : { ...state, form, edited: true }
    }
    case 'fillLastSentences':
      return {
        ...state,
        form: { ...state.form, dictation: appendSentence(state.form.dictation, state.transcript.buffer) },
        transcript: { ...state.transcript, buffer: '' },
      }
    case 'asked':
      return { ...state, askedWith: state.form, summary: asked(state.summary, action.transcriptLength, action.now, action.onSocket ?? true) }
    case 'callAnswered':
      return withResult(state, null, action.result, action.flavour)
    case 'callJob':
      return withSummary(state, jobNamed(state.summary, action.jobId))
    case 'callFailed':
      return withSummary(state, callFailed(state.summary, action.message))
    case 'jobChanged':
      return withSummary(state, jobChanged(state.summary, action.id, action.state, action.message, action.workerMessage ?? null))
    case 'summarization':
      if (action.template === state.form.template) return withResult(state, action.jobId, action.result, action.flavour)
      // a summary for a template the page has since left ends the wait without filling anything
      return acceptsResult(state.summary, action.jobId) ? withSummary(state, idleSummary) : state
    case 'polledJob':
      // only the newest request's job is polled; an answer still arriving for an earlier one is not its
      if (action.id !== state.summary.pending?.jobId) return state
      if (action.state === 'succeeded') return action.result ? withResult(state, action.id, action.result, action.flavour) : state
      // the job's last error is written for operators; the user reads the Dutch message
      return withSummary(state, jobChanged(state.summary, action.id, action.state, t.summaryFailed))
    case 'summaryFinished':
      return withSummary(state, finished(state.summary))
    case 'consultNamed':
      return state.consultId === action.consultId ? state : { ...state, consultId: action.consultId }
    case 'restored':
      // what was written before the consult came back is not overwritten
      if (action.form === null || state.edited || action.form.template !== state.form.template) return { ...state, consultId: action.consultId }
      return { ...state, consultId: action.consultId, form: action.form, edited: true }
  }
}
