import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react'
import { useAuth } from 'react-oidc-context'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { useToast } from '@/components/Toast'
import { summaryOutcome, useJob } from '@/features/jobs/api'
import { jobStateText } from '@/features/jobs/texts'
import { openSession } from './api'
import { startCapture, type Capture } from './capture'
import { CopyButton, GrowingTextarea, TranscriptPanel, Waveform } from './components'
import { SpeechConnection, speechUrl, type ConnectionStatus, type ServerMessage, type SummarizeRequest, type TranscriptLine } from './connection'
import {
  microphoneProblem,
  microphonesOf,
  rememberedMicrophone,
  rememberMicrophone,
  type Microphone,
  type MicrophoneProblem,
} from './microphones'
import { microphoneOnReady, typesTranscript, type MicrophoneState } from './microphoneFlow'
import { progressFraction } from './progress'
import {
  appendSentence,
  EPISODE_FIELDS,
  emptyForm,
  formFromResult,
  keepingChanges,
  specialistText,
  TEMPLATES,
  withEpisodeField,
  type ConsultForm,
  type EpisodeField,
  type Flavour,
  type SummaryResult,
  type Template,
} from './result'
import {
  acceptsResult,
  asked,
  delayedAfterMs,
  finished,
  idleSummary,
  jobChanged,
  refused,
  refusesRequest,
  resultShown,
  socketLost,
  type SummaryStatus,
} from './summaryRequest'
import { consultTexts as t } from './texts'
import { clock, useProgressElapsed, useRecordingSeconds, useSummaryDelayed } from './useElapsed'

export interface ConsultPageProps {
  model: string
  template: Template
  flavour: Flavour
}

const fieldNames: Record<EpisodeField, string> = {
  subjective: t.subjective,
  objective: t.objective,
  diagnosis: t.evaluation,
  plan: t.plan,
}

type Phase = 'idle' | 'starting' | 'live'

/** The live transcript: sentences merged by their number, and the words of the sentence in progress. */
interface Transcript {
  lines: TranscriptLine[]
  buffer: string
}

function mergeTranscript(current: Transcript, completed: readonly TranscriptLine[], buffer: string): Transcript {
  if (completed.length === 0) return { lines: current.lines, buffer }
  const byIdx = new Map(current.lines.map((l) => [l.idx, l]))
  for (const line of completed) byIdx.set(line.idx, line)
  return { lines: [...byIdx.values()].sort((a, b) => a.idx - b.idx), buffer }
}

const emptyTranscript: Transcript = { lines: [], buffer: '' }

/** /audioconsult/:model/:template[/:flavour]: record a consult, see it live, summarise it. */
export function ConsultPage({ model, template, flavour }: ConsultPageProps) {
  const auth = useAuth()
  const authRef = useRef(auth)
  authRef.current = auth
  const toast = useToast()
  const navigate = useNavigate()
  const beta = model === 'beta'
  const audioModel = model === 'radiology' || template === 'radiology' ? 'radiology' : 'multilingual'
  const dictating = template === 'dictation' || template === 'radiology'

  const [microphones, setMicrophones] = useState<Microphone[]>([])
  const [microphone, setMicrophone] = useState<string>(() => rememberedMicrophone() ?? '')
  const microphoneRef = useRef(microphone)
  microphoneRef.current = microphone
  const [micProblem, setMicProblem] = useState<MicrophoneProblem | null>(null)
  const [mic, setMicState] = useState<MicrophoneState>('off')
  const micRef = useRef<MicrophoneState>('off')
  const [phase, setPhase] = useState<Phase>('idle')
  const [recording, setRecording] = useState(false)
  const [status, setStatus] = useState<ConnectionStatus | null>(null)
  const [engine, setEngine] = useState<string | null | undefined>(undefined)
  const [engineFailed, setEngineFailed] = useState(false)
  const [transcript, setTranscript] = useState<Transcript>(emptyTranscript)
  const [typed, setTyped] = useState('')
  const [form, setForm] = useState<ConsultForm>(() => emptyForm(template, flavour))
  const [summary, setSummary] = useState<SummaryStatus>(idleSummary)
  /** The summary's status as of the last message (messages can come faster than renders). */
  const summaryRef = useRef(summary)
  const updateSummary = useCallback((change: (status: SummaryStatus) => SummaryStatus) => {
    const next = change(summaryRef.current)
    if (next === summaryRef.current) return
    summaryRef.current = next
    setSummary(next)
  }, [])
  const [fatal, setFatal] = useState<string | null>(null)
  const [backlogFull, setBacklogFull] = useState(false)
  const [episodeCount, setEpisodeCount] = useState(1)
  const [precision, setPrecision] = useState<'medium' | 'high'>('medium')
  const [generation, restart] = useReducer((n: number) => n + 1, 0)
  const ids = useId()

  const connection = useRef<SpeechConnection | null>(null)
  const capture = useRef<Capture | null>(null)
  /** Made in the Start click (browsers let such a context play), used once the microphone opens. */
  const audioContext = useRef<AudioContext | null>(null)
  /** Counts Opnieuw and leaving: what a start or a microphone began before that is dropped. */
  const epoch = useRef(0)
  const recordingRef = useRef(false)
  recordingRef.current = recording
  /** Sentences already appended to the dictation (a resumed session sends them all again). */
  const dictated = useRef(new Set<number>())
  const formRef = useRef(form)
  formRef.current = form
  /** The result's fields when the newest summary was asked for. */
  const askedWith = useRef<ConsultForm | null>(null)

  // Changing the template resets the result.
  useEffect(() => {
    setForm(emptyForm(template, flavour))
    dictated.current = new Set()
  }, [template, flavour])

  const listMicrophones = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return
    try {
      const devices = await navigator.mediaDevices.enumerateDevices()
      setMicrophones(microphonesOf(devices, t.unnamedMicrophone))
    } catch (error) {
      // the list failing is only logged; the default microphone still works
      console.warn('Microfoons konden niet worden opgevraagd', error)
    }
  }, [])

  useEffect(() => {
    void listMicrophones()
    const devices = navigator.mediaDevices
    if (!devices?.addEventListener) return
    const changed = () => void listMicrophones()
    devices.addEventListener('devicechange', changed)
    return () => devices.removeEventListener('devicechange', changed)
  }, [listMicrophones])

  const setMic = useCallback((next: MicrophoneState) => {
    micRef.current = next
    setMicState(next)
  }, [])

  const releaseAudioContext = useCallback(() => {
    void audioContext.current?.close().catch(() => {})
    audioContext.current = null
  }, [])

  const stopEverything = useCallback(() => {
    epoch.current++
    connection.current?.close()
    connection.current = null
    capture.current?.stop()
    capture.current = null
    releaseAudioContext()
  }, [releaseAudioContext])

  /**
   * Opens the microphone for a session that has a speech engine; frames go to the socket, which
   * keeps them while it is away. A refusal shows why and leaves the typed transcript open.
   */
  const openMicrophone = useCallback(async () => {
    const current = epoch.current
    setMic('asking')
    setMicProblem(null)
    let context = audioContext.current
    audioContext.current = null
    try {
      if (!context) {
        if (typeof AudioContext === 'undefined') throw new TypeError('no AudioContext')
        context = new AudioContext()
      }
      const opened = await startCapture(context, microphoneRef.current || null, (frame) => {
        if (recordingRef.current) connection.current?.sendAudio(frame)
      })
      if (current !== epoch.current) {
        opened.stop()
        return
      }
      capture.current = opened
      recordingRef.current = true
      setRecording(true)
      setMic('on')
      void listMicrophones()
    } catch (error) {
      void context?.close().catch(() => {})
      if (current !== epoch.current) return
      setMicProblem(microphoneProblem(error))
      setMic('failed')
    }
  }, [listMicrophones, setMic])

  // Leaving the page disconnects the session.
  useEffect(() => stopEverything, [stopEverything])

  /**
   * Shows the result of job `jobId` when it answers the newest request (see `summaryRequest`);
   * what was written in the result's fields while waiting stays.
   */
  const applyResult = useCallback(
    (jobId: string, result: SummaryResult) => {
      if (!acceptsResult(summaryRef.current, jobId)) return
      const fill = (current: ConsultForm) => keepingChanges(askedWith.current ?? current, current, formFromResult(current, result, flavour))
      setForm((current) => fill(current).form)
      if (fill(formRef.current).kept) toast({ tone: 'success', message: t.summaryKeptChanges })
      updateSummary(resultShown)
    },
    [flavour, toast, updateSummary],
  )

  const onMessage = useCallback(
    (message: ServerMessage) => {
      switch (message.type) {
        case 'ready':
          setEngine(message.engine)
          switch (microphoneOnReady(message.engine, micRef.current)) {
            case 'open':
              void openMicrophone()
              break
            case 'release':
              // nothing to listen to: the clinician types the conversation
              capture.current?.stop()
              capture.current = null
              releaseAudioContext()
              recordingRef.current = false
              setRecording(false)
              setMic('off')
              break
            case 'keep':
              break
          }
          break
        case 'transcript':
          setTranscript((current) => mergeTranscript(current, message.completed, message.buffer))
          if (dictating && message.completed.length > 0) {
            const fresh = message.completed.filter((l) => !dictated.current.has(l.idx)).sort((a, b) => a.idx - b.idx)
            fresh.forEach((l) => dictated.current.add(l.idx))
            if (fresh.length > 0) {
              setForm((current) => ({ ...current, dictation: fresh.reduce((text, l) => appendSentence(text, l.sentence), current.dictation) }))
            }
          }
          break
        case 'summarization':
          if (message.template === formRef.current.template) applyResult(message.jobId, message.result)
          // a summary for a template the page has since left ends the wait without filling anything
          else if (acceptsResult(summaryRef.current, message.jobId)) updateSummary(() => idleSummary)
          break
        case 'job':
          // the worker's message on failure is written for the user
          updateSummary((s) => jobChanged(s, message.id, message.state, message.message ?? t.summaryFailed))
          break
        case 'error':
          if (message.code === 'no_engine') {
            setEngine(null)
            break
          }
          if (message.code === 'engine_unavailable') setEngineFailed(true)
          // a refused summary request has no job yet
          if (refusesRequest(message.code)) updateSummary(refused)
          toast({ tone: 'error', message: message.message })
          break
        case 'pong':
          break
      }
    },
    [applyResult, dictating, toast, openMicrophone, releaseAudioContext, setMic, updateSummary],
  )

  const onStatus = useCallback((next: ConnectionStatus) => {
    setStatus(next)
    // the socket's answers to what it was sent are gone with it
    if (next.kind === 'reconnecting' || next.kind === 'closed') updateSummary(socketLost)
    if (next.kind === 'closed') {
      capture.current?.stop()
      capture.current = null
      void audioContext.current?.close().catch(() => {})
      audioContext.current = null
      setRecording(false)
      setFatal(t.closed[next.code] ?? (next.reason || t.connectionLost))
    }
  }, [updateSummary])

  const onMessageRef = useRef(onMessage)
  onMessageRef.current = onMessage

  async function start() {
    setMicProblem(null)
    setFatal(null)
    setPhase('starting')
    const current = epoch.current
    // Made in the click, so the browser lets it run; the microphone itself is asked for only once
    // the server says the session has a speech engine.
    releaseAudioContext()
    audioContext.current = typeof AudioContext === 'undefined' ? null : new AudioContext()
    try {
      const session = await openSession(beta)
      if (current !== epoch.current) return
      const conn = new SpeechConnection({
        url: speechUrl(window.location.origin, session.sessionId, audioModel),
        token: async (renew) => (renew ? (await authRef.current.signinSilent())?.access_token : authRef.current.user?.access_token),
        onMessage: (message) => onMessageRef.current(message),
        onStatus,
        onBacklog: setBacklogFull,
      })
      connection.current = conn
      setPhase('live')
      conn.start()
    } catch {
      if (current !== epoch.current) return
      releaseAudioContext()
      setPhase('idle')
      setFatal(t.sessionFailed)
    }
  }

  function reset() {
    stopEverything()
    setPhase('idle')
    setRecording(false)
    setStatus(null)
    setEngine(undefined)
    setEngineFailed(false)
    setTranscript(emptyTranscript)
    setTyped('')
    updateSummary(() => idleSummary)
    setFatal(null)
    setBacklogFull(false)
    setMicProblem(null)
    setMic('off')
    recordingRef.current = false
    dictated.current = new Set()
    setForm(emptyForm(template, flavour))
    restart()
  }

  const typing = typesTranscript(engine, engineFailed, mic)
  const spokenText = useMemo(
    () => [...transcript.lines.map((l) => l.sentence), transcript.buffer].filter((s) => s.trim() !== '').join(' '),
    [transcript],
  )
  const transcriptText = typing && typed.trim() !== '' ? typed : spokenText

  const pending = summary.pending
  const delayed = useSummaryDelayed(pending)

  /** Asks for a summary; while one is being made, only once it is delayed (it then replaces that one). */
  function summarize() {
    // Summarising does nothing when the transcript is empty.
    if (transcriptText.trim() === '' || (pending && !delayed)) return
    const request: SummarizeRequest = {
      template,
      flavour,
      modelSize: beta ? 'large' : 'medium',
      precision,
      episodeCount,
      ...(typing && typed.trim() !== '' ? { transcript: typed } : {}),
    }
    if (!connection.current?.sendJson({ type: 'summarize', request })) {
      toast({ tone: 'warning', message: t.reconnecting })
      return
    }
    askedWith.current = formRef.current
    updateSummary((s) => asked(s, transcriptText.length, Date.now()))
  }

  // While the socket is gone, and once the summary is delayed (its event may have been missed),
  // the summary's job is polled as well.
  const socketGone = status !== null && status.kind !== 'ready'
  const polled = useJob(pending && !pending.done && (socketGone || delayed) ? (pending.jobId ?? undefined) : undefined)
  useEffect(() => {
    const job = polled.data
    // only the newest request's job is polled; an answer still arriving for an earlier one is not its
    if (!job || job.id !== summaryRef.current.pending?.jobId) return
    if (job.state === 'succeeded') {
      const note = summaryOutcome(job)?.note
      if (note) applyResult(job.id, note)
    } else {
      // the job's last error is written for operators; the user reads the Dutch message
      updateSummary((s) => jobChanged(s, job.id, job.state, t.summaryFailed))
    }
  }, [polled.data, applyResult, updateSummary])

  // The finished bar shows a moment, then goes.
  useEffect(() => {
    if (!pending?.done) return
    const timer = setTimeout(() => updateSummary(finished), 1000)
    return () => clearTimeout(timer)
  }, [pending?.done, updateSummary])

  // While reconnecting, how much audio waits in the page.
  const [keptSeconds, setKeptSeconds] = useState(0)
  useEffect(() => {
    if (status?.kind !== 'reconnecting') return
    const timer = setInterval(() => setKeptSeconds(Math.floor(connection.current?.backlog.seconds ?? 0)), 500)
    return () => clearInterval(timer)
  }, [status?.kind])

  const elapsed = useProgressElapsed(pending !== null && !pending.done, pending?.askedAt)
  const seconds = useRecordingSeconds(phase === 'live' && recording && !typing, generation)

  function togglePause() {
    setRecording((r) => !r)
  }

  const microphonePicker = (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${ids}-mic`} className="text-sm font-medium text-slate-900">
        {t.microphone}
      </label>
      <select
        id={`${ids}-mic`}
        value={microphone}
        onChange={(e) => {
          setMicrophone(e.target.value)
          rememberMicrophone(e.target.value)
        }}
        className="min-w-64 rounded-md border-0 py-2 pr-8 pl-3 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700"
      >
        <option value="">{t.selectMicrophone}</option>
        {microphones.map((m) => (
          <option key={m.deviceId || m.label} value={m.deviceId}>
            {m.label}
          </option>
        ))}
      </select>
    </div>
  )

  const heading = `${t.headings[template] ?? t.headings.soap}${flavour === 'poh-ggz' ? ` (${t.pohGgz})` : ''}`

  return (
    <div>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{heading}</h1>

      <SettingsRow
        template={template}
        onTemplate={(next) => {
          void navigate({ to: '/audioconsult/$model/$template', params: { model, template: next } })
        }}
        episodeCount={episodeCount}
        onEpisodeCount={setEpisodeCount}
        precision={precision}
        onPrecision={setPrecision}
        showEpisodes={template === 'soap'}
      />

      {phase !== 'live' ? (
        <section className="mt-6 flex flex-wrap items-end gap-3">
          {microphonePicker}
          <button type="button" className={primaryButtonClass} onClick={() => void start()} disabled={phase === 'starting'}>
            {phase === 'starting' ? t.connecting : t.start}
          </button>
        </section>
      ) : (
        <section className="mt-6 space-y-3">
          {!typing && <Waveform analyser={capture.current?.analyser ?? null} active={recording && status?.kind === 'ready'} />}
          <div className="flex flex-wrap items-center gap-3">
            {!typing && (
              <span className="font-mono text-sm text-slate-700" aria-label={t.recordingTime}>
                {clock(seconds)}
              </span>
            )}
            {!typing && (
              <span className="text-sm text-slate-600" role="status">
                {status?.kind === 'connecting' || engine === undefined
                  ? t.connecting
                  : mic === 'asking'
                    ? t.openingMicrophone
                    : recording
                      ? t.recording
                      : t.paused}
              </span>
            )}
            <button type="button" className={secondaryButtonClass} onClick={reset}>
              {t.restart}
            </button>
            {!typing && (
              <button type="button" className={secondaryButtonClass} onClick={togglePause} disabled={status?.kind === 'closed' || mic !== 'on'}>
                {recording ? t.pause : t.start}
              </button>
            )}
            <button type="button" className={primaryButtonClass} onClick={summarize} disabled={pending !== null}>
              {t.summarize}
            </button>
          </div>
        </section>
      )}

      {micProblem && (
        <div className="mt-4 space-y-3 rounded-md bg-amber-50 p-3 ring-1 ring-amber-200">
          <p role="alert" className="text-sm text-amber-900">
            {t[micProblem]}
          </p>
          {phase === 'live' && mic === 'failed' && micProblem !== 'micUnsupported' && status?.kind !== 'closed' && (
            <div className="flex flex-wrap items-end gap-3">
              {microphonePicker}
              <button type="button" className={secondaryButtonClass} onClick={() => void openMicrophone()}>
                {t.retryMicrophone}
              </button>
            </div>
          )}
        </div>
      )}
      {fatal && (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
          {fatal}
        </p>
      )}
      {status?.kind === 'reconnecting' && (
        <p role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="reconnecting">
          {t.reconnecting} <span data-testid="kept-seconds" data-seconds={keptSeconds}>({t.kept(keptSeconds)})</span>
        </p>
      )}
      {backlogFull && (
        <p role="alert" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {t.bufferFull}
        </p>
      )}

      {pending && (
        <div className="mt-4" data-testid="summary" data-delayed-after-ms={delayedAfterMs(pending.transcriptLength)}>
          <div className="flex flex-wrap justify-between gap-x-4 text-sm text-slate-600">
            <span>{pending.done ? jobStateText('succeeded') : t.summarizing}</span>
            {!pending.done && <span data-testid="summary-job-state">{t.jobState(jobStateText(pending.jobState))}</span>}
          </div>
          <div
            role="progressbar"
            aria-label={t.summaryProgress}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progressFraction(elapsed, pending.transcriptLength, pending.done) * 100)}
            className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full bg-brand-700 transition-[width] duration-500"
              style={{ width: `${progressFraction(elapsed, pending.transcriptLength, pending.done) * 100}%` }}
            />
          </div>
          {delayed && (
            <div
              role="status"
              data-testid="summary-delayed"
              className="mt-3 flex flex-wrap items-center justify-between gap-3 rounded-md bg-amber-50 p-3 ring-1 ring-amber-200"
            >
              <p className="text-sm text-amber-900">{t.summaryDelayed}</p>
              <button type="button" className={secondaryButtonClass} onClick={summarize}>
                {t.retrySummary}
              </button>
            </div>
          )}
        </div>
      )}
      {summary.failure && (
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-md bg-red-50 p-3 ring-1 ring-red-200" data-testid="summary-failed">
          <p role="alert" className="text-sm text-red-900">
            {summary.failure}
          </p>
          {phase === 'live' && (
            <button type="button" className={secondaryButtonClass} onClick={summarize}>
              {t.retrySummary}
            </button>
          )}
        </div>
      )}

      {phase === 'live' && typing && (
        <section className="mt-6 space-y-2">
          <p role="status" className="rounded-md bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-200">
            {engine === null ? t.noEngine : t.typeInstead}
          </p>
          <label htmlFor={`${ids}-typed`} className="block text-sm font-medium text-slate-900">
            {t.typedTranscript}
          </label>
          <GrowingTextarea id={`${ids}-typed`} value={typed} placeholder={t.typedPlaceholder} onChange={(e) => setTyped(e.target.value)} />
        </section>
      )}

      {phase === 'live' && !typing && !dictating && (
        <div className="mt-6">
          <TranscriptPanel lines={transcript.lines} buffer={transcript.buffer} />
        </div>
      )}

      <ResultView
        form={form}
        setForm={setForm}
        idPrefix={ids}
        fillLastSentences={
          dictating && transcript.buffer.trim() !== '' && !recording
            ? () => {
                setForm((current) => ({ ...current, dictation: appendSentence(current.dictation, transcript.buffer) }))
                setTranscript((current) => ({ ...current, buffer: '' }))
              }
            : null
        }
      />
    </div>
  )
}

function SettingsRow(props: {
  template: Template
  onTemplate: (template: Template) => void
  episodeCount: number
  onEpisodeCount: (n: number) => void
  precision: 'medium' | 'high'
  onPrecision: (p: 'medium' | 'high') => void
  showEpisodes: boolean
}) {
  const select = 'rounded-md border-0 py-1 pr-7 pl-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700'
  return (
    <div className="mt-4 flex flex-wrap items-center gap-4 text-sm text-slate-700" role="group" aria-label={t.settings}>
      <label className="flex items-center gap-2">
        {t.template}
        <select className={select} value={props.template} onChange={(e) => props.onTemplate(e.target.value as Template)}>
          {TEMPLATES.map((name) => (
            <option key={name} value={name}>
              {t.templates[name]}
            </option>
          ))}
        </select>
      </label>
      {props.showEpisodes && (
        <label className="flex items-center gap-2">
          {t.episodes}
          <select className={select} value={props.episodeCount} onChange={(e) => props.onEpisodeCount(Number(e.target.value))}>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex items-center gap-2">
        {t.precision}
        <select className={select} value={props.precision} onChange={(e) => props.onPrecision(e.target.value as 'medium' | 'high')}>
          <option value="medium">{t.precisionMedium}</option>
          <option value="high">{t.precisionHigh}</option>
        </select>
      </label>
    </div>
  )
}

function LabelledField({
  id,
  label,
  value,
  onChange,
  copy = true,
  hideLabel = false,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  copy?: boolean
  hideLabel?: boolean
}) {
  return (
    <div>
      <div className="flex items-center justify-between">
        <label htmlFor={id} id={`${id}-label`} className={hideLabel ? 'sr-only' : 'text-sm font-medium text-slate-900'}>
          {label}
        </label>
        {copy && <CopyButton text={value} describedBy={`${id}-label`} />}
      </div>
      <GrowingTextarea id={id} value={value} onChange={(e) => onChange(e.target.value)} className="mt-1" />
    </div>
  )
}

function ResultView({
  form,
  setForm,
  idPrefix,
  fillLastSentences,
}: {
  form: ConsultForm
  setForm: (update: (form: ConsultForm) => ConsultForm) => void
  idPrefix: string
  fillLastSentences: (() => void) | null
}) {
  let body
  switch (form.template) {
    case 'soap':
      body = form.episodes.map((episode, index) => (
        <fieldset key={index} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
          <legend className="px-1 text-base font-semibold text-slate-900">{t.episode(index + 1)}</legend>
          <div className="space-y-3">
            {EPISODE_FIELDS.map((field) => (
              <LabelledField
                key={field}
                id={`${idPrefix}-e${index}-${field}`}
                label={fieldNames[field]}
                value={episode[field]}
                onChange={(value) => setForm((f) => withEpisodeField(f, index, field, value))}
              />
            ))}
          </div>
        </fieldset>
      ))
      break
    case 'report':
      body = <LabelledField id={`${idPrefix}-report`} label={t.report} value={form.report} onChange={(report) => setForm((f) => ({ ...f, report }))} />
      break
    case 'dictation':
    case 'radiology':
      body = (
        <>
          <LabelledField
            id={`${idPrefix}-dictation`}
            label={t.dictation}
            value={form.dictation}
            onChange={(dictation) => setForm((f) => ({ ...f, dictation }))}
          />
          {fillLastSentences && (
            <button type="button" className={secondaryButtonClass} onClick={fillLastSentences}>
              {t.fillLastSentences}
            </button>
          )}
          {form.summarizedDictation !== null && (
            <LabelledField
              id={`${idPrefix}-summary`}
              label={t.summary}
              value={form.summarizedDictation}
              onChange={(summarizedDictation) => setForm((f) => ({ ...f, summarizedDictation }))}
            />
          )}
        </>
      )
      break
    case 'specialist':
      body = (
        <>
          <div className="flex justify-end">
            <CopyButton text={specialistText(form.specialist)} label={t.copyWhole} />
          </div>
          {form.specialist.map((section, index) => (
            <LabelledField
              key={section.name}
              id={`${idPrefix}-s${index}`}
              label={section.name}
              value={section.text}
              onChange={(text) =>
                setForm((f) => ({ ...f, specialist: f.specialist.map((s, i) => (i === index ? { ...s, text } : s)) }))
              }
            />
          ))}
        </>
      )
      break
    case 'meeting':
      body = (
        <LabelledField id={`${idPrefix}-meeting`} label={t.meeting} hideLabel value={form.meeting} onChange={(meeting) => setForm((f) => ({ ...f, meeting }))} />
      )
      break
  }
  return (
    <section aria-labelledby={`${idPrefix}-result`} className="mt-8 space-y-4">
      <h2 id={`${idPrefix}-result`} className="text-lg font-semibold text-slate-900">
        {t.result}
      </h2>
      {body}
    </section>
  )
}
