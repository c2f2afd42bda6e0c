import { useCallback, useEffect, useId, useReducer, useRef } from 'react'
import { ApiError } from '@/api/client'
import { primaryButtonClass } from '@/components/buttonStyles'
import { summaryOutcome, useJob } from '@/features/jobs'
import { summariseEConsult } from './api'
import { CopyButton, GrowingTextarea } from './components'
import { ConsultResult } from './ConsultResult'
import { econsultReducer, hasAdvice, initialEConsult } from './econsult'
import type { ConsultForm } from './result'
import { SummaryView } from './SummaryView'
import { consultTexts, econsultTexts as t } from './texts'
import { useSummaryDelayed } from './useElapsed'

/**
 * /consult/v1/econsult: the GP pastes a patient's written question; the page summarises it (a SOEP
 * note) and drafts a reply in plain Dutch from it, both editable and copyable.
 */
export function EConsultPage() {
  const ids = useId()
  const [state, dispatch] = useReducer(econsultReducer, initialEConsult)
  const { summary, form } = state
  const pending = summary.pending
  const delayed = useSummaryDelayed(pending)
  /** Counts the calls: only the newest one's answer is shown. */
  const calls = useRef(0)

  const summarize = useCallback(() => {
    if (state.question.trim() === '') {
      dispatch({ type: 'empty' })
      return
    }
    if (pending && !delayed) return
    const call = ++calls.current
    dispatch({ type: 'asked', now: Date.now() })
    summariseEConsult(state.question, 1).then(
      (answer) => {
        if (call !== calls.current) return
        if ('jobId' in answer) dispatch({ type: 'job', jobId: answer.jobId })
        else dispatch({ type: 'note', note: answer.note })
      },
      (error: unknown) => {
        if (call !== calls.current) return
        dispatch({ type: 'failed', message: error instanceof ApiError && error.status < 500 ? error.message : consultTexts.summaryFailed })
      },
    )
  }, [delayed, pending, state.question])

  // a call that answered before the note was there: its job is polled
  const polled = useJob(pending && !pending.done ? (pending.jobId ?? undefined) : undefined)
  useEffect(() => {
    const job = polled.data
    if (!job) return
    const note = job.state === 'succeeded' ? summaryOutcome(job)?.note : undefined
    if (note && job.id === pending?.jobId) dispatch({ type: 'note', note })
    else dispatch({ type: 'jobState', jobId: job.id, state: job.state })
  }, [polled.data, pending?.jobId])

  // the full bar shows a moment, then goes
  useEffect(() => {
    if (!pending?.done) return
    const timer = setTimeout(() => dispatch({ type: 'finished' }), 1000)
    return () => clearTimeout(timer)
  }, [pending?.done])

  const setForm = useCallback((change: (form: ConsultForm) => ConsultForm) => dispatch({ type: 'editForm', change }), [])

  return (
    <div>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.heading}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>

      <section className="mt-6 space-y-2">
        <label htmlFor={`${ids}-question`} className="block text-sm font-medium text-slate-900">
          {t.question}
        </label>
        <GrowingTextarea
          id={`${ids}-question`}
          value={state.question}
          placeholder={t.questionPlaceholder}
          onChange={(e) => dispatch({ type: 'question', text: e.target.value })}
        />
        {state.emptyAsked && (
          <p role="alert" className="text-sm text-amber-900">
            {t.empty}
          </p>
        )}
        <div>
          <button type="button" className={primaryButtonClass} onClick={summarize} disabled={pending !== null && !delayed}>
            {t.summarize}
          </button>
        </div>
      </section>

      <SummaryView summary={summary} delayed={delayed} live onRetry={summarize} />

      {form && (
        <>
          <ConsultResult form={form} setForm={setForm} idPrefix={`${ids}-summary`} fillLastSentences={null} heading={t.summary} />
          <section aria-labelledby={`${ids}-reply`} className="mt-8 space-y-2">
            <div className="flex items-center justify-between">
              <h2 id={`${ids}-reply`} className="text-lg font-semibold text-slate-900">
                <label htmlFor={`${ids}-reply-text`}>{t.reply}</label>
              </h2>
              <CopyButton text={state.reply} describedBy={`${ids}-reply`} />
            </div>
            <p className="text-sm text-slate-600">{hasAdvice(form.episodes) ? t.replyCheck : t.noAdvice}</p>
            <GrowingTextarea id={`${ids}-reply-text`} value={state.reply} onChange={(e) => dispatch({ type: 'reply', text: e.target.value })} />
          </section>
        </>
      )}
    </div>
  )
}
