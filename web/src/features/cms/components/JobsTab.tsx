import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { iconButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { jobStateText } from '@/features/jobs'
import { jobProblemsQuery, jobsOverviewQuery, refreshAfter, retryJob } from '../api'
import { dateTime } from '../format'
import { problemState } from '../rules'
import { cmsTexts as t } from '../texts'
import { PanelHeading, Pager, StateRow, TableCard, tdClass, thClass } from './ui'

const j = t.jobs
const number = new Intl.NumberFormat('nl-NL')

/** Achtergrondtaken: the queues, the periodic tasks, and the jobs that failed, to try again. */
export function JobsTab() {
  const [page, setPage] = useState(0)
  const overview = useQuery(jobsOverviewQuery())
  const problems = useQuery(jobProblemsQuery(page))
  const queryClient = useQueryClient()
  const toast = useToast()
  const [retrying, setRetrying] = useState<string | null>(null)
  const queues = overview.data?.queues ?? []
  const sweeps = overview.data?.sweeps ?? []
  const rows = problems.data?.rows ?? []

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

  return (
    <section aria-labelledby="cms-achtergrondtaken">
      <PanelHeading id="cms-achtergrondtaken" title={t.tabs.achtergrondtaken}>
        {j.intro}
      </PanelHeading>

      <h3 className="mt-8 text-base font-semibold text-slate-900">{j.problemsTitle}</h3>
      <TableCard
        label={j.problemsTitle}
        footer={problems.data && <Pager page={page} total={problems.data.total} pageSize={problems.data.pageSize} onPage={setPage} />}
      >
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={thClass}>
              {j.problemColumns.description}
            </th>
            <th scope="col" className={thClass}>
              {j.problemColumns.state}
            </th>
            <th scope="col" className={thClass}>
              {j.problemColumns.attempts}
            </th>
            <th scope="col" className={thClass}>
              {j.problemColumns.error}
            </th>
            <th scope="col" className={thClass}>
              <span className="sr-only">{j.problemColumns.actions}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {problems.isSuccess && rows.length === 0 ? (
            <tr>
              <td colSpan={5} className="px-4 py-6 text-sm text-slate-500">
                {j.noProblems}
              </td>
            </tr>
          ) : (
            <StateRow columns={5} loading={problems.isPending} failed={problems.isError} empty={false} />
          )}
          {rows.map((job) => (
            <tr key={job.id}>
              <td className={`${tdClass} min-w-64`}>
                <p className="text-slate-900">{job.description}</p>
                <p className="text-xs text-slate-500">
                  {job.kind} · {dateTime(job.updatedAt)}
                </p>
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>
                <span className={job.state === 'retrying' ? 'font-medium text-amber-700' : 'font-medium text-red-700'}>{problemState(job.state)}</span>
                {job.state === 'retrying' && <p className="text-xs text-slate-500">{j.nextAttempt(dateTime(job.runAt))}</p>}
              </td>
              <td className={`${tdClass} whitespace-nowrap`}>{j.attempts(job.attempts, job.maxAttempts)}</td>
              <td className={`${tdClass} max-w-md min-w-64 text-xs break-words text-slate-600`}>{job.lastError ?? t.none}</td>
              <td className={`${tdClass} text-right whitespace-nowrap`}>
                {job.retryable && (
                  <button type="button" disabled={retrying === job.id} onClick={() => void retry(job.id)} className={iconButtonClass}>
                    <Icon name="refresh" className="size-4" />
                    {j.retry}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </TableCard>

      <div className="mt-8 grid grid-cols-1 gap-8 xl:grid-cols-2">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{j.queuesTitle}</h3>
          <TableCard label={j.queuesTitle}>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={thClass}>
                  {j.queueColumns.kind}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {j.queueColumns.queued}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {j.queueColumns.running}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  {j.queueColumns.retrying}
                </th>
                <th scope="col" className={thClass}>
                  {j.queueColumns.oldest}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {overview.isSuccess && queues.length === 0 ? (
                <tr>
                  <td colSpan={5} className="px-4 py-6 text-sm text-slate-500">
                    {j.noQueued}
                  </td>
                </tr>
              ) : (
                <StateRow columns={5} loading={overview.isPending} failed={overview.isError} empty={false} />
              )}
              {queues.map((q) => (
                <tr key={q.kind}>
                  <td className={`${tdClass} whitespace-nowrap text-slate-900`}>{q.label}</td>
                  <td className={`${tdClass} text-right`}>{number.format(q.queued)}</td>
                  <td className={`${tdClass} text-right`}>{number.format(q.running)}</td>
                  <td className={`${tdClass} text-right`}>{number.format(q.retrying)}</td>
                  <td className={`${tdClass} whitespace-nowrap`}>{dateTime(q.oldestWaitingSince)}</td>
                </tr>
              ))}
            </tbody>
          </TableCard>
        </div>
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{j.sweepsTitle}</h3>
          <TableCard label={j.sweepsTitle}>
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={thClass}>
                  {j.sweepColumns.name}
                </th>
                <th scope="col" className={thClass}>
                  {j.sweepColumns.lastRunAt}
                </th>
                <th scope="col" className={thClass}>
                  {j.sweepColumns.result}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              <StateRow columns={3} loading={overview.isPending} failed={overview.isError} empty={overview.isSuccess && sweeps.length === 0} />
              {sweeps.map((sweep) => (
                <tr key={sweep.name}>
                  <td className={`${tdClass} whitespace-nowrap text-slate-900`}>{sweep.label}</td>
                  <td className={`${tdClass} whitespace-nowrap`}>{sweep.lastRunAt ? dateTime(sweep.lastRunAt) : j.neverRun}</td>
                  <td className={`${tdClass} min-w-48`}>{sweep.summary ?? (sweep.state ? jobStateText(sweep.state) : t.none)}</td>
                </tr>
              ))}
            </tbody>
          </TableCard>
        </div>
      </div>
    </section>
  )
}
