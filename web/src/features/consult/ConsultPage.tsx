import { useQuery } from '@tanstack/react-query'
import { useBlocker, useNavigate } from '@tanstack/react-router'
import { useEffect, useId, useRef, useState } from 'react'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { publicConfigQueryOptions } from '@/features/auth'
import { setFeedbackConsult, showFeedbackHint } from '@/features/feedback'
import { GrowingTextarea, TranscriptPanel } from './components'
import { ConsultResult } from './ConsultResult'
import { ConsultSettings } from './ConsultSettings'
import { LiveControls } from './LiveControls'
import { MicrophonePicker } from './MicrophonePicker'
import type { Flavour, Template } from './result'
import { SummaryView } from './SummaryView'
import { consultNoteTexts as n, consultTexts as t } from './texts'
import { NoteStatusLine } from './NoteStatusLine'
import { useConsultSession, type SummaryRouting } from './useConsultSession'
import { useMicrophones } from './useMicrophones'

export interface ConsultPageProps {
  model: string
  template: Template
  flavour: Flavour
  /** `classic` (/consult/v1/audio): SOEP only, summarised by the summary calls; else over the socket. */
  routing?: SummaryRouting
}

/**
 * /audioconsult/:model/:template[/:flavour] and /consult/v1/audio: record (or type) a consult, see
 * it live, summarise it.
 */
export function ConsultPage({ model, template, flavour, routing = 'live' }: ConsultPageProps) {
  const navigate = useNavigate()
  const ids = useId()
  const microphones = useMicrophones()
  const [episodeCount, setEpisodeCount] = useState(1)
  const [precision, setPrecision] = useState<'medium' | 'high'>('medium')
  const classic = routing === 'classic'
  // whether the page's audio model has a speech engine is known before Start
  const speechEngines = useQuery(publicConfigQueryOptions()).data?.speechEngines
  const audioModel = model === 'radiology' || template === 'radiology' ? 'radiology' : 'multilingual'
  const session = useConsultSession({
    model,
    template,
    flavour,
    routing,
    microphone: microphones.microphone,
    onMicrophoneOpened: () => void microphones.refresh(),
    speechEngine: speechEngines?.[audioModel],
  })
  const { state, typing, dictating } = session
  const { phase, status, mic, micProblem } = state
  const summarize = () => session.summarize({ precision, episodeCount })
  // the classic routing's normal precision (v2-turbo) takes no episode count
  const showEpisodes = template === 'soap' && (!classic || precision === 'high')

  // leaving the page (a link, Back, another template) with the note edited asks first
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => state.edited && current.pathname !== next.pathname,
    // closing or reloading only while the newest edits are not kept yet (a reload brings kept ones back)
    enableBeforeUnload: () => session.note.status.kind === 'saving' || session.note.status.kind === 'failed',
    withResolver: true,
  })
  const [confirmingRestart, setConfirmingRestart] = useState(false)
  const restart = () => (state.edited ? setConfirmingRestart(true) : session.reset())

  // feedback sent from here names this consult; a summary shown for the first time hints at it
  useEffect(() => {
    setFeedbackConsult(state.consultId)
    return () => setFeedbackConsult(null)
  }, [state.consultId])
  const hinted = useRef(0)
  useEffect(() => {
    if (state.resultsShown === 0 || hinted.current > 0) return
    hinted.current = state.resultsShown
    showFeedbackHint()
  }, [state.resultsShown])

  const microphonePicker = (
    <MicrophonePicker id={`${ids}-mic`} microphones={microphones.microphones} value={microphones.microphone} onChange={microphones.choose} />
  )

  const heading = `${t.headings[template] ?? t.headings.soap}${flavour === 'poh-ggz' ? ` (${t.pohGgz})` : ''}`

  return (
    <div>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{heading}</h1>

      <ConsultSettings
        template={template}
        onTemplate={
          classic
            ? null
            : (next) => {
                void navigate({ to: '/audioconsult/$model/$template', params: { model, template: next } })
              }
        }
        episodeCount={episodeCount}
        onEpisodeCount={setEpisodeCount}
        precision={precision}
        onPrecision={setPrecision}
        showEpisodes={showEpisodes}
      />

      {session.note.restore === 'loading' && (
        <p role="status" className="mt-4 text-sm text-slate-600">
          {n.restoring}
        </p>
      )}
      {session.note.restore === 'restored' && (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-emerald-200" data-testid="note-restored">
          {n.restored}
        </p>
      )}
      {session.note.restore === 'gone' && (
        <p role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {n.gone}
        </p>
      )}

      {phase !== 'live' ? (
        <section className="mt-6 space-y-3">
          {typing && (
            <p role="status" className="rounded-md bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-200" data-testid="no-engine">
              {n.noEngineBeforeStart}
            </p>
          )}
          <div className="flex flex-wrap items-end gap-3">
            {/* without a speech engine there is nothing to record with: no microphone to pick */}
            {!typing && microphonePicker}
            <button type="button" className={primaryButtonClass} onClick={() => void session.start()} disabled={phase === 'starting'}>
              {phase === 'starting' ? t.connecting : t.start}
            </button>
          </div>
        </section>
      ) : (
        <LiveControls session={state} typing={typing} onReset={restart} onTogglePause={session.togglePause} onSummarize={summarize} />
      )}

      {micProblem && (
        <div className="mt-4 space-y-3 rounded-md bg-amber-50 p-3 ring-1 ring-amber-200">
          <p role="alert" className="text-sm text-amber-900">
            {t[micProblem]}
          </p>
          {phase === 'live' && mic === 'failed' && micProblem !== 'micUnsupported' && status?.kind !== 'closed' && (
            <div className="flex flex-wrap items-end gap-3">
              {microphonePicker}
              <button type="button" className={secondaryButtonClass} onClick={() => void session.retryMicrophone()}>
                {t.retryMicrophone}
              </button>
            </div>
          )}
        </div>
      )}
      {state.fatal && (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
          {state.fatal}
        </p>
      )}
      {status?.kind === 'reconnecting' && (
        <p role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="reconnecting">
          {t.reconnecting}{' '}
          <span data-testid="kept-seconds" data-seconds={session.keptSeconds}>
            ({t.kept(session.keptSeconds)})
          </span>
        </p>
      )}
      {state.backlogFull && (
        <p role="alert" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {t.bufferFull}
        </p>
      )}

      <SummaryView summary={state.summary} delayed={session.delayed} live={phase === 'live'} onRetry={summarize} />

      {typing && (
        <section className="mt-6 space-y-2">
          {phase === 'live' && (
            <p role="status" className="rounded-md bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-200">
              {state.engine === null ? t.noEngine : t.typeInstead}
            </p>
          )}
          <label htmlFor={`${ids}-typed`} className="block text-sm font-medium text-slate-900">
            {t.typedTranscript}
          </label>
          <GrowingTextarea id={`${ids}-typed`} value={state.typed} placeholder={t.typedPlaceholder} onChange={(e) => session.setTyped(e.target.value)} />
        </section>
      )}

      {phase === 'live' && !typing && !dictating && (
        <div className="mt-6">
          <TranscriptPanel lines={state.transcript.lines} buffer={state.transcript.buffer} />
        </div>
      )}

      <ConsultResult
        form={state.form}
        setForm={session.editForm}
        idPrefix={ids}
        fillLastSentences={dictating && state.transcript.buffer.trim() !== '' && !state.recording ? session.fillLastSentences : null}
        onSplit={
          phase === 'live' && showEpisodes
            ? (episodes) => {
                setEpisodeCount(episodes)
                session.summarize({ precision, episodeCount: episodes })
              }
            : null
        }
      />
      <NoteStatusLine status={session.note.status} />

      <ConfirmDialog
        open={blocker.status === 'blocked'}
        title={n.discardTitle}
        message={n.discardLeave}
        confirmLabel={n.discardConfirm}
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      />
      <ConfirmDialog
        open={confirmingRestart}
        title={n.discardTitle}
        message={n.discardRestart}
        confirmLabel={n.discardConfirm}
        onConfirm={() => {
          setConfirmingRestart(false)
          session.reset()
        }}
        onClose={() => setConfirmingRestart(false)}
      />
    </div>
  )
}
