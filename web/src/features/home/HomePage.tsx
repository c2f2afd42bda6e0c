import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Icon } from '@/components/Icon'
import { meQueryOptions } from '@/features/user'
import { greetingName } from './greeting'
import { actionCards, homeTexts } from './texts'

export function HomePage() {
  const { data: me } = useSuspenseQuery(meQueryOptions())
  return (
    <div>
      <header>
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{homeTexts.greeting(greetingName(me))}</h1>
        <p className="mt-2 text-slate-600">{homeTexts.intro}</p>
      </header>

      <section aria-labelledby="acties" className="mt-8">
        <h2 id="acties" className="sr-only">
          {homeTexts.actionsHeading}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {actionCards.map((card) => (
            <li key={card.to}>
              <Link
                to={card.to}
                data-testid="action-card"
                className="group flex h-full flex-col rounded-xl bg-white p-5 shadow-xs ring-1 ring-slate-200 transition hover:shadow-md hover:ring-brand-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
              >
                <span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700 group-hover:bg-brand-700 group-hover:text-white">
                  <Icon name={card.icon} className="size-6" />
                </span>
                <span className="mt-4 flex items-center justify-between gap-2 font-semibold text-slate-900">
                  {card.title}
                  <Icon name="chevronRight" className="size-4 text-slate-400 group-hover:text-brand-700" />
                </span>
                <span className="mt-1 text-sm text-slate-600">{card.description}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
