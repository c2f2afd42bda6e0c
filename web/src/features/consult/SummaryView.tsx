import { secondaryButtonClass } from '@/components/buttonStyles'
import { jobStateText } from '@/features/jobs'
import { progressFraction } from './progress'
import { delayedAfterMs, type SummaryStatus } from './summaryRequest'
import { consultTexts as t } from './texts'
import { useProgressElapsed } from './useElapsed'

/**
 * The summary being made (a bar estimating the time, the job's state, and past its bound the
 * delay message with 'Opnieuw proberen'), or why the newest request failed.
 */
export function SummaryView({
  summary,
  delayed,
  live,
  onRetry,
}: {
  summary: SummaryStatus
  delayed: boolean
  /** The session runs, so a failed summary can be asked for again. */
  live: boolean
  onRetry: () => void
}) {
  const pending = summary.pending
  const elapsed = useProgressElapsed(pending !== null && !pending.done, pending?.askedAt)
  return (
    <>
      {pending && (
        <div className="mt-4" data-testid="summary" data-delayed-after-ms={delayedAfterMs(pending.transcriptLength)}>
          <div className="flex flex-wrap justify-between gap-x-4 text-sm text-slate-600">
            <span>{pending.done ? jobStateText('succeeded') : t.summarizing}</span>
            {!pending.done && (
              // why the job is retried, when the worker said so (the model still loading), else its state
              <span data-testid="summary-job-state">{pending.retryMessage ?? t.jobState(jobStateText(pending.jobState))}</span>
            )}
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
              <button type="button" className={secondaryButtonClass} onClick={onRetry}>
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
          {live && (
            <button type="button" className={secondaryButtonClass} onClick={onRetry}>
              {t.retrySummary}
            </button>
          )}
        </div>
      )}
    </>
  )
}
