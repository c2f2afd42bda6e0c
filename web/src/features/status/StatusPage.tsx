import { useSuspenseQuery } from '@tanstack/react-query'
import { Icon } from '@/components/Icon'
import { readinessQueryOptions } from './api'
import { checkName, failureReason, statusTexts as t } from './texts'

const timeOfDay = new Intl.DateTimeFormat('nl-NL', { timeStyle: 'medium' })

export function StatusPage() {
  const { data, refetch, isFetching } = useSuspenseQuery(readinessQueryOptions())
  const summary = !data.reachable
    ? { title: t.unreachable, help: t.unreachableHelp, tone: 'bg-red-50 text-red-800 ring-red-200', icon: 'xCircle' as const }
    : data.ready
      ? { title: t.ready, help: t.readyHelp, tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200', icon: 'checkCircle' as const }
      : { title: t.degraded, help: t.degradedHelp, tone: 'bg-amber-50 text-amber-900 ring-amber-200', icon: 'xCircle' as const }
  const checks = Object.entries(data.checks)

  return (
    <div className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>

      <div role="status" className={`mt-8 flex gap-3 rounded-xl p-5 ring-1 ${summary.tone}`}>
        <Icon name={summary.icon} className="size-6 shrink-0" />
        <div>
          <h2 className="font-semibold">{summary.title}</h2>
          <p className="mt-1 text-sm">{summary.help}</p>
        </div>
      </div>

      {checks.length > 0 && (
        <section aria-labelledby="onderdelen" className="mt-6 overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
          <h2 id="onderdelen" className="border-b border-slate-200 px-6 py-4 text-base font-semibold text-slate-900">
            {t.components}
          </h2>
          <ul className="divide-y divide-slate-100">
            {checks.map(([name, result]) => (
              <li key={name} className="flex items-center justify-between gap-4 px-6 py-4 text-sm">
                <span className="font-medium text-slate-900">{checkName(name)}</span>
                {result === 'ok' ? (
                  <span className="inline-flex items-center gap-1.5 text-emerald-700">
                    <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
                    {t.ok}
                  </span>
                ) : (
                  <span className="inline-flex items-center gap-1.5 text-red-700">
                    <span aria-hidden="true" className="size-2 rounded-full bg-red-500" />
                    {t.failing(failureReason(result))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="mt-6 flex flex-wrap items-center gap-4">
        <button
          type="button"
          onClick={() => void refetch()}
          disabled={isFetching}
          className="inline-flex items-center gap-2 rounded-md bg-white px-3 py-2 text-sm font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-60"
        >
          <Icon name="refresh" className={`size-4 ${isFetching ? 'animate-spin' : ''}`} />
          {t.refresh}
        </button>
        <p className="text-sm text-slate-500">{t.checkedAt(timeOfDay.format(data.checkedAt))}</p>
      </div>

      <p className="mt-8 text-sm text-slate-600">{t.contact}</p>
    </div>
  )
}
