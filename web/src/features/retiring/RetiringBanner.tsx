import { useQuery } from '@tanstack/react-query'
import { useRouterState } from '@tanstack/react-router'
import { publicConfigQueryOptions } from '@/features/auth'
import { retiringEnvironment, showsRetiringBanner } from './retiring'
import { retiringTexts as t } from './texts'

/** The green banner above every signed-in page but the live consult, while this environment is being retired. */
export function RetiringBanner() {
  const config = useQuery(publicConfigQueryOptions())
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const retiring = retiringEnvironment(config.data)
  if (!retiring || !showsRetiringBanner(pathname)) return null
  return (
    <section aria-label={t.banner} className="bg-emerald-700 text-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2.5 text-sm sm:px-6 lg:px-8">
        <p className="font-medium">{t.stopsOn(retiring.day)}</p>
        <a
          href={retiring.url}
          className="font-semibold underline underline-offset-2 hover:text-emerald-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {t.goThere} <span aria-hidden="true">&rarr;</span>
        </a>
      </div>
    </section>
  )
}
