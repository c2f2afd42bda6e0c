import { useCallback, useEffect, useRef, useState } from 'react'
import { useAuth } from 'react-oidc-context'
import { useToast } from '@/components/Toast'
import { summaryOutcome, useJob } from '@/features/jobs'
import { ApiError } from '@/api/client'
import { openSession, summariseClassic } from './api'
import { startCapture, type Capture } from './capture'
import { SpeechConnection, speechUrl, type ServerMessage } from './connection'
import {
  consultReducer,
  initialConsultState,
  isTyping,
  summaryRequestOf,
  transcriptText,
  type ConsultAction,
  type ConsultState,
  type SummaryChoices,
} from './consultSession'
import { microphoneProblem } from './microphones'
import { microphoneOnReady } from './microphoneFlow'
import type { ConsultForm, Flavour, Template } from './result'
import { consultTexts as t } from './texts'
import { useConsultNote } from './useConsultNote'
import { useSummaryDelayed } from './useElapsed'

export interface ConsultSessionOptions {
  model: string
  template: Template
  flavour: Flavour
  /** The chosen microphone's device id ('' for the default one). */
  microphone: string
  /** The microphone opened: its label is now readable, so the list is read again. */
  onMicrophoneOpened: () => void
  /**
   * How a summary is asked for: `live` over the session's socket (the /audioconsult pages),
   * `classic` by the summary calls (`v2-turbo`, or `v1` for high precision; /consult/v1/audio),
   * their job polled when the call answers before the note is there.
   */
  routing?: SummaryRouting
  /**
   * Whether the page's audio model has a speech engine (the public settings), before any session:
   * false shows the typed transcript at once; undefined while the settings load.
   */
  speechEngine?: boolean
}

export type SummaryRouting = 'live' | 'classic'

/** The Dutch text of a failed classic call: the api's own refusal (a 4xx), else the general one. */
function callFailure(error: unknown): string {
  return error instanceof ApiError && error.status < 500 ? error.message : t.summaryFailed
}

/**
 * The live consult's life on the page: opens the session and its socket on Start, the microphone
 * once the server names an engine, follows the summary asked for, and closes everything on
 * Opnieuw and when the page is left. The state is `consultReducer`'s; it is kept in a ref as well
 * as rendered, because socket messages can come faster than renders and each is applied to the
 * state the one before left.
 */
export function useConsultSession(options: ConsultSessionOptions) {
  const { model, template, flavour } = options
  const classic = options.routing === 'classic'
  /** Counts classic calls: only the newest one's answer is shown. */
  const calls = useRef(0)
  const auth = useAuth()
  const toast = useToast()
  const dictating = template === 'dictation' || template === 'radiology'
  const beta = model === 'beta'
  const audioModel = model === 'radiology' || template === 'radiology' ? 'radiology' : 'multilingual'

  const [state, setState] = useState<ConsultState>(() => initialConsultState(template, flavour))
  const current = useRef(state)
  const dispatch = useCallback((action: ConsultAction): ConsultState => {
    const next = consultReducer(current.current, action)
    if (next !== current.current) {
      current.current = next
      setState(next)
    }
    return next
  }, [])

  // the note is kept with its consult on the server, and a reload brings it back
  const note = useConsultNote(state, dispatch, { template, flavour })
  const noteRef = useRef(note)
  useEffect(() => {
    noteRef.current = note
  })

  // known before Start: without a speech engine the clinician types the conversation
  const noEngineKnown = options.speechEngine === false
  useEffect(() => {
    if (noEngineKnown && state.engine === undefined) dispatch({ type: 'noEngine' })
  }, [dispatch, noEngineKnown, state.engine])

  /** What the socket's and the microphone's callbacks read: the newest render's options and session. */
  const latest = useRef({ auth, toast, options, dictating })
  useEffect(() => {
    latest.current = { auth, toast, options, dictating }
  })

  const connection = useRef<SpeechConnection | null>(null)
  const capture = useRef<Capture | null>(null)
  /** Made in the Start click (browsers let such a context play), used once the microphone opens. */
  const audioContext = useRef<AudioContext | null>(null)
  /** Counts Opnieuw and leaving: what a start or a microphone began before that is dropped. */
  const epoch = useRef(0)

  // Changing the template resets the result.
  const shown = useRef({ template, flavour })
  useEffect(() => {
    if (shown.current.template === template && shown.current.flavour === flavour) return
    shown.current = { template, flavour }
    dispatch({ type: 'templateChanged', template, flavour })
  }, [template, flavour, dispatch])

  const releaseAudioContext = useCallback(() => {
    void audioContext.current?.close().catch(() => {})
    audioContext.current = null
  }, [])

  const stopCapture = useCallback(() => {
    capture.current?.stop()
    capture.current = null
  }, [])

  const stopEverything = useCallback(() => {
    epoch.current++
    connection.current?.close()
    connection.current = null
    stopCapture()
    releaseAudioContext()
  }, [releaseAudioContext, stopCapture])

  // Leaving the page disconnects the session.
  useEffect(() => stopEverything, [stopEverything])

  /**
   * Opens the microphone for a session that has a speech engine; frames go to the socket, which
   * keeps them while it is away. A refusal shows why and leaves the typed transcript open.
   */
  const openMicrophone = useCallback(async () => {
    const started = epoch.current
    dispatch({ type: 'micAsking' })
    let context = audioContext.current
    audioContext.current = null
    try {
      if (!context) {
        if (typeof AudioContext === 'undefined') throw new TypeError('no AudioContext')
        context = new AudioContext()
      }
      const opened = await startCapture(context, latest.current.options.microphone || null, (frame) => {
        if (current.current.recording) connection.current?.sendAudio(frame)
      })
      if (started !== epoch.current) {
        opened.stop()
        return
      }
      capture.current = opened
      dispatch({ type: 'micOpened', analyser: opened.analyser })
      latest.current.options.onMicrophoneOpened()
    } catch (error) {
      void context?.close().catch(() => {})
      if (started !== epoch.current) return
      dispatch({ type: 'micFailed', problem: microphoneProblem(error) })
    }
  }, [dispatch])

  const onMessage = useCallback(
    (message: ServerMessage) => {
      const { toast, options, dictating } = latest.current
      switch (message.type) {
        case 'ready': {
          const mic = current.current.mic
          dispatch({ type: 'ready', engine: message.engine })
          switch (microphoneOnReady(message.engine, mic)) {
            case 'open':
              void openMicrophone()
              break
            case 'release':
              // nothing to listen to: the clinician types the conversation
              stopCapture()
              releaseAudioContext()
              break
            case 'keep':
              break
          }
          break
        }
        case 'transcript':
          dispatch({ type: 'transcript', completed: message.completed, buffer: message.buffer, dictating })
          break
        case 'summarization': {
          const before = current.current.keptChanges
          const next = dispatch({ type: 'summarization', jobId: message.jobId, template: message.template, result: message.result, flavour: options.flavour })
          if (next.keptChanges !== before) toast({ tone: 'success', message: t.summaryKeptChanges })
          break
        }
        case 'job':
          // the worker's message is written for the user: why it failed, or why it is retried
          dispatch({ type: 'jobChanged', id: message.id, state: message.state, message: message.message ?? t.summaryFailed, workerMessage: message.message })
          break
        case 'error':
          if (message.code === 'no_engine') {
            dispatch({ type: 'noEngine' })
            break
          }
          dispatch({ type: 'socketError', code: message.code })
          toast({ tone: 'error', message: message.message })
          break
        case 'pong':
          break
      }
    },
    [dispatch, openMicrophone, releaseAudioContext, stopCapture],
  )

  const start = useCallback(async () => {
    dispatch({ type: 'start' })
    const started = epoch.current
    // Made in the click, so the browser lets it run; the microphone itself is asked for only once
    // the server says the session has a speech engine.
    releaseAudioContext()
    // nothing to listen with when no engine is known: no audio context either
    audioContext.current = typeof AudioContext === 'undefined' || current.current.engine === null ? null : new AudioContext()
    try {
      // the session joins the consult the note is kept with; one that is gone meanwhile gives way to a new one
      const consultId = await noteRef.current.consultForSession()
      const session = await openSession(beta, consultId ?? undefined).catch((error: unknown) => {
        if (consultId && error instanceof ApiError && error.status === 404) return openSession(beta)
        throw error
      })
      if (started !== epoch.current) return
      dispatch({ type: 'consultNamed', consultId: session.consultId })
      const conn = new SpeechConnection({
        url: speechUrl(window.location.origin, session.sessionId, audioModel),
        token: async (renew) => {
          const auth = latest.current.auth
          return renew ? (await auth.signinSilent())?.access_token : auth.user?.access_token
        },
        onMessage,
        onStatus: (status) => {
          dispatch({ type: 'status', status })
          if (status.kind === 'closed') {
            stopCapture()
            releaseAudioContext()
          }
        },
        onBacklog: (full) => dispatch({ type: 'backlog', full }),
      })
      connection.current = conn
      dispatch({ type: 'sessionOpened' })
      conn.start()
    } catch {
      if (started !== epoch.current) return
      releaseAudioContext()
      dispatch({ type: 'sessionFailed' })
    }
  }, [audioModel, beta, dispatch, onMessage, releaseAudioContext, stopCapture])

  const reset = useCallback(() => {
    stopEverything()
    noteRef.current.forget()
    dispatch({ type: 'reset', template, flavour })
  }, [dispatch, flavour, stopEverything, template])

  const pending = state.summary.pending
  const delayed = useSummaryDelayed(pending)

  /**
   * Asks for a summary; while one is being made, only once it is delayed (it then replaces that
   * one). One whose result is in (its bar still filling) does not hold up the next.
   */
  const summarize = useCallback(
    (choices: Pick<SummaryChoices, 'precision' | 'episodeCount'>) => {
      const session = current.current
      const text = transcriptText(session)
      // Summarising does nothing when the transcript is empty.
      if (text.trim() === '' || (session.summary.pending && !session.summary.pending.done && !delayed)) return
      if (classic) {
        const call = ++calls.current
        const started = epoch.current
        const newest = () => call === calls.current && started === epoch.current
        dispatch({ type: 'asked', transcriptLength: text.length, now: Date.now(), onSocket: false })
        summariseClassic(text, { ...choices, flavour }).then(
          (answer) => {
            if (!newest()) return
            if ('jobId' in answer) dispatch({ type: 'callJob', jobId: answer.jobId })
            else dispatch({ type: 'callAnswered', result: answer.note, flavour })
          },
          (error: unknown) => {
            if (newest()) dispatch({ type: 'callFailed', message: callFailure(error) })
          },
        )
        return
      }
      const request = summaryRequestOf(session, { template, flavour, beta, ...choices })
      if (!connection.current?.sendJson({ type: 'summarize', request })) {
        toast({ tone: 'warning', message: t.reconnecting })
        return
      }
      dispatch({ type: 'asked', transcriptLength: text.length, now: Date.now() })
    },
    [beta, classic, delayed, dispatch, flavour, template, toast],
  )

  // While the socket is gone, and once the summary is delayed (its event may have been missed),
  // the summary's job is polled as well; a classic call's job only so.
  const socketGone = state.status !== null && state.status.kind !== 'ready'
  const polled = useJob(pending && !pending.done && (classic || socketGone || delayed) ? (pending.jobId ?? undefined) : undefined)
  useEffect(() => {
    const job = polled.data
    if (!job) return
    const before = current.current.keptChanges
    const next = dispatch({ type: 'polledJob', id: job.id, state: job.state, result: summaryOutcome(job)?.note ?? undefined, flavour })
    if (next.keptChanges !== before) toast({ tone: 'success', message: t.summaryKeptChanges })
  }, [polled.data, dispatch, flavour, toast])

  // The finished bar shows a moment, then goes.
  useEffect(() => {
    if (!pending?.done) return
    const timer = setTimeout(() => dispatch({ type: 'summaryFinished' }), 1000)
    return () => clearTimeout(timer)
  }, [pending?.done, dispatch])

  // While reconnecting, how much audio waits in the page.
  const [keptSeconds, setKeptSeconds] = useState(0)
  useEffect(() => {
    if (state.status?.kind !== 'reconnecting') return
    const timer = setInterval(() => setKeptSeconds(Math.floor(connection.current?.backlog.seconds ?? 0)), 500)
    return () => clearInterval(timer)
  }, [state.status?.kind])

  return {
    state,
    note: { status: note.status, restore: note.restore },
    typing: isTyping(state),
    dictating,
    delayed,
    keptSeconds,
    start,
    reset,
    summarize,
    retryMicrophone: openMicrophone,
    togglePause: useCallback(() => dispatch({ type: 'togglePause' }), [dispatch]),
    setTyped: useCallback((text: string) => dispatch({ type: 'typed', text }), [dispatch]),
    editForm: useCallback((change: (form: ConsultForm) => ConsultForm) => dispatch({ type: 'editForm', change }), [dispatch]),
    fillLastSentences: useCallback(() => dispatch({ type: 'fillLastSentences' }), [dispatch]),
  }
}
