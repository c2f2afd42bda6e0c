import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { iconButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { jobStateText } from '@/features/jobs'
import { jobProblemsQuery, jobsOverviewQuery, refreshAfter, retryJob, type JobProblem, type JobQueue, type SweepRun } from '../api'
import { dateTime } from '../format'
import { problemState } from '../rules'
import { cmsTexts as t } from '../texts'
import { CmsTable, type Column } from './CmsTable'
import { PanelHeading } from './ui'

const j = t.jobs
const number = new Intl.NumberFormat('nl-NL')

const queueColumns: Column<JobQueue>[] = [
  { header: j.queueColumns.kind, className: 'text-slate-900', cell: (q) => q.label },
  { header: j.queueColumns.queued, align: 'right', cell: (q) => number.format(q.queued) },
  { header: j.queueColumns.running, align: 'right', cell: (q) => number.format(q.running) },
  { header: j.queueColumns.retrying, align: 'right', cell: (q) => number.format(q.retrying) },
  { header: j.queueColumns.oldest, cell: (q) => dateTime(q.oldestWaitingSince) },
]

const sweepColumns: Column<SweepRun>[] = [
  { header: j.sweepColumns.name, className: 'text-slate-900', cell: (sweep) => sweep.label },
  { header: j.sweepColumns.lastRunAt, cell: (sweep) => (sweep.lastRunAt ? dateTime(sweep.lastRunAt) : j.neverRun) },
  { header: j.sweepColumns.result, cell: (sweep) => sweep.summary ?? (sweep.state ? jobStateText(sweep.state) : t.none) },
]

/** Achtergrondtaken: the queues, the periodic tasks, and the jobs that failed, to try again. */
export function JobsTab() {
  const [page, setPage] = useState(0)
  const overview = useQuery(jobsOverviewQuery())
  const problems = useQuery(jobProblemsQuery(page))
  const queryClient = useQueryClient()
  const toast = useToast()
  const [retrying, setRetrying] = useState<string | null>(null)

  const retry = async (id: string) => {
    setRetrying(id)
    try {
      await retryJob(id)
      toast({ tone: 'success', message: j.retried })
    } catch (failure) {
      toast({ tone: 'error', message: j.retryFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshAfter(queryClient, 'jobs')
      setRetrying(null)
    }
  }

  const problemColumns: Column<JobProblem>[] = [
    {
      header: j.problemColumns.description,
      cell: (job) => (
        <>
          <p className="text-slate-900">{job.description}</p>
          <p className="text-xs text-slate-500">
            {job.kind} · {dateTime(job.updatedAt)}
          </p>
        </>
      ),
    },
    {
      header: j.problemColumns.state,
      fit: 'nowrap',
      cell: (job) => (
        <>
          <span className={job.state === 'retrying' ? 'font-medium text-amber-700' : 'font-medium text-red-700'}>{problemState(job.state)}</span>
          {job.state === 'retrying' && <p className="text-xs text-slate-500">{j.nextAttempt(dateTime(job.runAt))}</p>}
        </>
      ),
    },
    { header: j.problemColumns.attempts, fit: 'nowrap', cell: (job) => j.attempts(job.attempts, job.maxAttempts) },
    { header: j.problemColumns.error, className: 'text-xs text-slate-600 md:max-w-md', cell: (job) => job.lastError ?? t.none },
    {
      header: j.problemColumns.actions,
      hideHeader: true,
      fit: 'nowrap',
      align: 'right',
      cell: (job) =>
        job.retryable && (
          <button type="button" disabled={retrying === job.id} onClick={() => void retry(job.id)} className={`-mx-2 ${iconButtonClass}`}>
            <Icon name="refresh" className="size-4" />
            {j.retry}
          </button>
        ),
    },
  ]

  return (
    <section aria-labelledby="cms-achtergrondtaken">
      <PanelHeading id="cms-achtergrondtaken" title={t.tabs.achtergrondtaken}>
        {j.intro}
      </PanelHeading>

      <h3 className="mt-8 text-base font-semibold text-slate-900">{j.problemsTitle}</h3>
      <CmsTable
        label={j.problemsTitle}
        columns={problemColumns}
        rowKey={(job) => job.id}
        query={problems}
        list={{ page, setPage }}
        empty={j.noProblems}
      />

      <div className="mt-8 grid grid-cols-1 gap-8 xl:grid-cols-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{j.queuesTitle}</h3>
          <CmsTable label={j.queuesTitle} columns={queueColumns} rowKey={(q) => q.kind} query={{ ...overview, data: overview.data?.queues }} empty={j.noQueued} />
        </div>
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{j.sweepsTitle}</h3>
          <CmsTable label={j.sweepsTitle} columns={sweepColumns} rowKey={(sweep) => sweep.name} query={{ ...overview, data: overview.data?.sweeps }} />
        </div>
      </div>
    </section>
  )
}
