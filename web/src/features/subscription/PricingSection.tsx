import { useState } from 'react'
import { Icon } from '@/components/Icon'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { applyDiscountCode, type Discount } from './api'
import type { Tier } from './display'
import { discountAllowed, discountTerms, featureList, formatEuros, parseUsers, priceOf, type Interval } from './pricing'
import { subscriptionTexts as t } from './texts'

export interface Choice {
  tier: Tier
  interval: Interval
  users: number
  discount: Discount | null
}

/** The tiers with the monthly/yearly switch (§2.1); choosing one opens the billing dialog. */
export function PricingSection({ tiers, onChoose }: { tiers: Tier[]; onChoose: (choice: Choice) => void }) {
  const [interval, setInterval] = useState<Interval>(1)
  return (
    <section aria-labelledby="kies-abonnement" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="kies-abonnement" tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
          {t.pricing}
        </h2>
        <div role="radiogroup" aria-label={t.pricing} className="inline-flex rounded-lg bg-slate-100 p-1 text-sm font-medium">
          {([1, 12] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={interval === value}
              onClick={() => setInterval(value)}
              className={`rounded-md px-3 py-1.5 ${interval === value ? 'bg-white text-slate-900 shadow-xs' : 'text-slate-600 hover:text-slate-900'}`}
            >
              {value === 1 ? t.monthly : `${t.yearly} ${t.yearlyDiscount}`}
            </button>
          ))}
        </div>
      </div>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        {tiers.map((tier) => (
          <TierCard key={tier.id} tier={tier} interval={interval} onChoose={onChoose} />
        ))}
      </div>
    </section>
  )
}

function TierCard({ tier, interval, onChoose }: { tier: Tier; interval: Interval; onChoose: (choice: Choice) => void }) {
  const [users, setUsers] = useState('1')
  const [code, setCode] = useState('')
  const [discount, setDiscount] = useState<Discount | null>(null)
  const [codeMessage, setCodeMessage] = useState<string | null>(null)
  const withDiscount = discountAllowed(tier, interval) ? discount : null
  // the count is checked as it is typed; no price is shown for one the api would refuse
  const userCount = tier.isIndividual ? 1 : parseUsers(users)
  const price = priceOf(tier, interval, userCount ?? 1, withDiscount?.discountPrice)
  const yearly = interval === 12
  const usersError = `users-error-${tier.id}`

  const apply = async () => {
    setCodeMessage(null)
    const found = code.trim() ? await applyDiscountCode(code.trim()).catch(() => null) : null
    if (!found || found.tierId !== tier.id) {
      setDiscount(null)
      setCodeMessage(t.discountInvalid)
      window.setTimeout(() => setCodeMessage(null), 10_000)
      return
    }
    setDiscount(found)
  }

  return (
    <article
      aria-labelledby={`tier-${tier.id}`}
      className={`flex flex-col rounded-xl bg-white p-6 shadow-xs ring-1 ${tier.mostPopular ? 'ring-2 ring-brand-700' : 'ring-slate-200'}`}
    >
      <div className="flex items-start justify-between gap-2">
        <h3 id={`tier-${tier.id}`} className="text-lg font-semibold text-slate-900">
          {tier.name}
        </h3>
        {tier.mostPopular && (
          <span className="rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-800">{t.mostPopular}</span>
        )}
      </div>
      <p className="mt-2 text-sm text-slate-600">{tier.description}</p>
      <p className="mt-5">
        {tier.isTrial ? (
          <span className="text-3xl font-semibold text-slate-900">{t.free}</span>
        ) : (
          <>
            <span className="text-3xl font-semibold text-slate-900">{formatEuros(price.perUser)}</span>{' '}
            <span className="text-sm text-slate-600">{yearly ? t.perUserYear : t.perUserMonth}</span>
          </>
        )}
      </p>
      {!tier.isTrial && <p className="text-sm text-slate-500">{t.exclVat(formatEuros(price.perUserExclVat))}</p>}
      {tier.isTrial && tier.trialDays != null && <p className="text-sm text-slate-500">{t.trialDays(tier.trialDays)}</p>}
      <ul className="mt-5 space-y-2 text-sm text-slate-700">
        {featureList(tier.features).map((feature) => (
          <li key={feature} className="flex gap-2">
            <Icon name="checkCircle" className="size-5 shrink-0 text-brand-700" />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-6">
        {!tier.isIndividual && (
          <label className="block text-sm font-medium text-slate-700">
            {t.userAmount}
            <input
              type="text"
              inputMode="numeric"
              value={users}
              aria-invalid={userCount === null || undefined}
              aria-describedby={userCount === null ? usersError : undefined}
              onChange={(e) => setUsers(e.target.value)}
              className="mt-1 block w-28 rounded-md border-0 px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700 aria-invalid:ring-red-500"
            />
          </label>
        )}
        {userCount === null && (
          <p id={usersError} role="alert" className="mt-1 text-sm font-medium text-red-700">
            {t.userAmountInvalid}
          </p>
        )}
        {discountAllowed(tier, interval) && (
          <div className="mt-3">
            <label className="block text-sm font-medium text-slate-700" htmlFor={`code-${tier.id}`}>
              {t.discountCode}
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id={`code-${tier.id}`}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                className="block w-full rounded-md border-0 px-3 py-2 text-sm uppercase ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700"
              />
              <button type="button" onClick={() => void apply()} className={secondaryButtonClass}>
                {t.applyDiscount}
              </button>
            </div>
            {codeMessage && (
              <p role="alert" className="mt-1 text-sm font-medium text-red-700">
                {codeMessage}
              </p>
            )}
            {withDiscount && (
              <>
                <p className="mt-1 text-sm text-emerald-700">{t.discountApplied(withDiscount.title)}</p>
                <p className="mt-1 text-sm text-slate-700">{discountTerms(withDiscount, tier, t)}</p>
              </>
            )}
          </div>
        )}
        {!tier.isTrial && !tier.isIndividual && userCount !== null && (
          <p className="mt-4 text-sm text-slate-700">
            <span className="font-semibold">{t.total}:</span> {formatEuros(price.total)} {yearly ? t.perYear : t.perMonth}{' '}
            <span className="text-slate-500">({t.exclVat(formatEuros(price.totalExclVat))})</span>
          </p>
        )}
        {tier.unavailable && (
          <p className="mt-4 text-sm font-medium text-slate-700" id={`unavailable-${tier.id}`}>
            {tier.unavailable}
          </p>
        )}
        <button
          type="button"
          disabled={userCount === null || tier.unavailable != null}
          aria-describedby={tier.unavailable ? `unavailable-${tier.id}` : undefined}
          onClick={() =>
            userCount !== null &&
            onChoose({
              tier,
              interval,
              users: price.users,
              discount: withDiscount,
            })
          }
          className={`${primaryButtonClass} mt-4 w-full`}
        >
          {tier.isTrial ? t.startTrial : t.choose}
        </button>
      </div>
    </article>
  )
}
