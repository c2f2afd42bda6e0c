import { useQuery } from '@tanstack/react-query'
import { formatDayMonth } from '@/lib/dates'
import { dailyQuery, statisticsQuery, type Statistics, type StatisticsDay } from '../api'
import { barLayout, summarise } from '../charts'
import { day } from '../format'
import { cmsTexts as t } from '../texts'
import { PanelHeading } from './ui'

const st = t.statistics
const number = new Intl.NumberFormat('nl-NL')

/** Statistieken: the counters as tiles, and three small charts of the last 90 days. */
export function StatisticsTab() {
  const statistics = useQuery(statisticsQuery())
  const daily = useQuery(dailyQuery())

  return (
    <section aria-labelledby="cms-statistieken">
      <PanelHeading id="cms-statistieken" title={t.tabs.statistieken} />
      {statistics.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {t.loadFailed}
        </p>
      )}
      {statistics.isPending && <p className="mt-4 text-sm text-slate-500">{t.loading}</p>}
      {statistics.data && <Tiles s={statistics.data} />}

      <h3 className="mt-10 text-base font-semibold text-slate-900">{st.chartsTitle}</h3>
      {daily.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {t.loadFailed}
        </p>
      )}
      {daily.data && (
        <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-3">
          <Chart title={st.charts.newUsers} days={daily.data.days} value={(d) => d.newUsers} colour="fill-brand-600" />
          <Chart title={st.charts.consults} days={daily.data.days} value={(d) => d.consults} colour="fill-sky-600" />
          <Chart title={st.charts.paidSubscriptions} days={daily.data.days} value={(d) => d.paidSubscriptions} colour="fill-amber-500" />
        </div>
      )}
    </section>
  )
}

function Tiles({ s }: { s: Statistics }) {
  const tiles: { label: string; value: string; help?: string }[] = [
    { label: st.tiles.activeUsers, value: number.format(s.activeUsers), help: st.tiles.activeUsersHelp },
    { label: st.tiles.consultsNow, value: number.format(s.consultsNow) },
    { label: st.tiles.newUsersToday, value: number.format(s.newUsersToday) },
    { label: st.tiles.users, value: number.format(s.users) },
    { label: st.tiles.paidSubscriptions, value: pair(s.paidSubscriptions, s.paidSubscriptionsActive), help: st.totalActive },
    { label: st.tiles.trialSubscriptions, value: pair(s.trialSubscriptions, s.trialSubscriptionsActive), help: st.totalActive },
    {
      label: st.tiles.organisationSubscriptions,
      value: pair(s.organisationSubscriptions, s.organisationSubscriptionsActive),
      help: st.totalActive,
    },
    { label: st.tiles.consultsToday, value: number.format(s.consultsToday) },
    { label: st.tiles.recordSystemConsultsToday, value: number.format(s.recordSystemConsultsToday) },
  ]
  return (
    <dl className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
      {tiles.map((tile) => (
        <div key={tile.label} className="min-w-0 rounded-xl bg-white px-4 py-3 shadow-xs ring-1 ring-slate-200 sm:px-5 sm:py-4">
          <dt className="text-sm font-medium text-slate-600">{tile.label}</dt>
          <dd className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">{tile.value}</dd>
          {tile.help && <dd className="text-xs text-slate-500">{tile.help}</dd>}
        </div>
      ))}
    </dl>
  )
}

const pair = (total: number, active: number) => `${number.format(total)} / ${number.format(active)}`

const WIDTH = 360
const HEIGHT = 120

/** A small hand-drawn bar chart; its label says in words what it shows. */
function Chart({ title, days, value, colour }: { title: string; days: StatisticsDay[]; value: (d: StatisticsDay) => number; colour: string }) {
  const values = days.map(value)
  const { top, bars } = barLayout(values, WIDTH, HEIGHT, 1)
  const { total, max, maxIndex } = summarise(values)
  const first = days[0]?.day ?? null
  const last = days[days.length - 1]?.day ?? null
  const label = st.chartLabel(title, total, max, maxIndex >= 0 ? day(days[maxIndex].day) : null, first && day(first), last && day(last))
  return (
    <figure className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-900">{title}</span>
        <span className="text-slate-500">{st.total(total)}</span>
      </figcaption>
      <svg role="img" aria-label={label} viewBox={`0 0 ${WIDTH} ${HEIGHT + 18}`} className="mt-3 h-auto w-full" preserveAspectRatio="none">
        <title>{label}</title>
        <line x1={0} x2={WIDTH} y1={0.5} y2={0.5} className="stroke-slate-100" />
        <line x1={0} x2={WIDTH} y1={HEIGHT / 2} y2={HEIGHT / 2} className="stroke-slate-100" />
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-300" />
        <text x={2} y={10} className="fill-slate-400 text-[10px]">
          {number.format(top)}
        </text>
        {bars.map((bar, i) => (
          <rect key={days[i].day} x={bar.x} y={bar.y} width={bar.width} height={bar.height} className={colour} />
        ))}
        {first && (
          <text x={0} y={HEIGHT + 14} className="fill-slate-500 text-[10px]">
            {formatDayMonth(first)}
          </text>
        )}
        {last && (
          <text x={WIDTH} y={HEIGHT + 14} textAnchor="end" className="fill-slate-500 text-[10px]">
            {formatDayMonth(last)}
          </text>
        )}
      </svg>
    </figure>
  )
}
