import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ApiError } from '@/api/client'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { Icon } from '@/components/Icon'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { formatDate } from '@/lib/dates'
import {
  addLinkedUser,
  cancelPayment,
  cancelSubscription,
  invoiceLink,
  linkedQuery,
  needsInvitation,
  organisationQuery,
  ownQuery,
  paymentLink,
  paymentsQuery,
  removeLinkedUser,
  startTrial,
  subscriptionKey,
  tiersQuery,
  type BillingPaymentDetails,
} from './api'
import { BillingDialog } from './BillingDialog'
import type { BillingForm } from './billing'
import {
  CHECKOUT_STARTED_KEY,
  canCancel,
  cancellationTerms,
  isExpiredOpen,
  isResumable,
  isShown,
  isUnderWay,
  justStarted,
  lastFailure,
  normaliseEmail,
  overFairUse,
  pollInterval,
  seatLabel,
  showExpired,
  showNextPayment,
  todayUtc,
  type OrganisationSubscription,
  type OtherSubscription,
  type Payment,
  type Subscription,
  type Tier,
} from './display'
import { discountTerms, formatEuros } from './pricing'
import { PricingSection, type Choice } from './PricingSection'
import { subscriptionTexts as t } from './texts'

const card = 'rounded-xl bg-white shadow-xs ring-1 ring-slate-200'

/** /subscription: own, linked and organisation subscriptions, the tiers, and 'Betalingen' (spec §2.1). */
export function SubscriptionPage() {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: subscriptionKey })
  // when the page sent the browser to the provider's checkout (set just before it did), and when
  // the user came back: the page waits only for payments it just started
  const [startedAt, setStartedAt] = useState<number | null>(readCheckoutStarted)
  const [returnedAt, setReturnedAt] = useState(() => Date.now())
  const now = useNow()
  // 'back' from the checkout may show this page from the browser's cache, as it was before
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (!event.persisted) return
      setStartedAt(readCheckoutStarted())
      setReturnedAt(Date.now())
      void queryClient.invalidateQueries({ queryKey: subscriptionKey })
    }
    window.addEventListener('pageshow', shown)
    return () => window.removeEventListener('pageshow', shown)
  }, [queryClient])
  const payments = useQuery({
    ...paymentsQuery(),
    // back from the checkout the webhook may still be on its way: ask again until the payment
    // settles or expires, every 2 s for a minute and less often after
    refetchInterval: (query) =>
      justStarted(query.state.data ?? [], startedAt, Date.now()).length > 0 ? pollInterval(Date.now() - returnedAt) : false,
  })
  const waitingFor = justStarted(payments.data ?? [], startedAt, now)
  const waiting = waitingFor.length > 0
  const own = useQuery({
    ...ownQuery(),
    refetchInterval: waiting ? pollInterval(now - returnedAt) : false,
  })
  // nothing the page started is under way any more: forget the checkout
  useEffect(() => {
    if (startedAt != null && payments.isSuccess && !waiting) {
      window.sessionStorage.removeItem(CHECKOUT_STARTED_KEY)
      setStartedAt(null)
    }
  }, [startedAt, payments.isSuccess, waiting])
  // the two polls run apart: once the payment has settled, read the subscriptions once more, so one
  // read just before the payment was applied does not stay on the page
  const wasWaiting = useRef(false)
  useEffect(() => {
    if (wasWaiting.current && !waiting) void queryClient.invalidateQueries({ queryKey: subscriptionKey })
    wasWaiting.current = waiting
  }, [waiting, queryClient])
  const linked = useQuery(linkedQuery())
  const organisation = useQuery(organisationQuery())
  const tiers = useQuery(tiersQuery())
  const [choice, setChoice] = useState<Choice | null>(null)
  const today = todayUtc()

  const failed = [own, linked, organisation, tiers, payments].some((q) => q.isError)
  const underWay = new Set((payments.data ?? []).filter((p) => isUnderWay(p, now)).map((p) => p.id))
  // one never activated shows only while its first payment is under way
  const ownShown = (own.data ?? []).filter((s) =>
    s.validUntil ? isShown(s.validUntil, today) : s.firstPaymentId != null && underWay.has(s.firstPaymentId),
  )
  const linkedShown = (linked.data ?? []).filter((s) => isShown(s.validUntil, today))
  const organisationShown = (organisation.data ?? []).filter((s) => isShown(s.validUntil, today))
  const expired = showExpired(
    (own.data ?? []).filter((s) => s.validUntil),
    linked.data ?? [],
    organisation.data ?? [],
  )
  const failure = lastFailure(payments.data ?? [], now)
  const resumable = (payments.data ?? []).filter((p) => isResumable(p, now))

  const buy = async (form: BillingForm) => {
    if (!choice) return
    const { tier, interval, users, discount } = choice
    const details: BillingPaymentDetails = {
      ...form,
      tierId: tier.id,
      userAmount: users,
      intervalMonths: interval,
      subscriptionType: interval === 12 ? 'ANUALLY' : 'MONTHLY',
      isIndividual: tier.isIndividual,
      description: tier.name,
      discountId: discount?.id ?? null,
    }
    if (tier.isTrial) {
      await startTrial(details)
      setChoice(null)
      await refresh()
      return
    }
    const href = await paymentLink(details)
    window.sessionStorage.setItem(CHECKOUT_STARTED_KEY, String(Date.now()))
    window.location.assign(href)
  }

  const tryAgain = () => {
    const pricing = document.getElementById('kies-abonnement')
    pricing?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    pricing?.focus({ preventScroll: true })
  }

  return (
    <div className="max-w-6xl">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
        <Link to="/" className={`${secondaryButtonClass} inline-flex items-center gap-2`}>
          <Icon name="arrowLeft" className="size-4" />
          {t.back}
        </Link>
      </div>
      <p className="mt-2 text-slate-600">{t.intro}</p>

      {failed && (
        <p role="alert" className="mt-6 rounded-lg bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-200">
          {t.loadFailed}
        </p>
      )}
      {expired && (
        <p role="alert" className="mt-6 rounded-lg bg-red-50 p-4 text-sm font-semibold text-red-700 ring-1 ring-red-200">
          {t.expired}
        </p>
      )}
      {waiting && (
        <p role="status" className="mt-6 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          {now - returnedAt < 60_000 ? t.paymentWaiting : t.paymentUnfinished}
        </p>
      )}
      {failure && (
        <div
          role="alert"
          className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-200"
        >
          <p className="min-w-0 flex-1">{t.paymentFailed}</p>
          <button type="button" onClick={tryAgain} className={secondaryButtonClass}>
            {t.tryAgain}
          </button>
        </div>
      )}

      <OpenPayments payments={resumable} onChanged={refresh} />

      <section aria-labelledby="mijn-abonnementen" className="mt-8">
        <h2 id="mijn-abonnementen" className="text-xl font-semibold text-slate-900">
          {t.own}
        </h2>
        {own.isSuccess && ownShown.length === 0 && <p className="mt-2 text-sm text-slate-600">{t.noOwn}</p>}
        <div className="mt-4 space-y-4">
          {ownShown.map((s) => (
            <OwnSubscription
              key={s.id}
              subscription={s}
              tier={tiers.data?.find((tier) => tier.id === s.tierId)}
              awaitingPayment={!s.isActive && s.firstPaymentId != null && underWay.has(s.firstPaymentId)}
              onChanged={refresh}
            />
          ))}
        </div>
      </section>

      <OthersSection id="gekoppeld" title={t.linked} items={linkedShown} />
      <OthersSection id="via-organisatie" title={t.organisation} items={organisationShown} />

      {tiers.data && <PricingSection tiers={tiers.data} onChoose={setChoice} />}

      <PaymentsTable payments={payments.data ?? []} now={now} />

      <BillingDialog
        open={choice !== null}
        trial={choice?.tier.isTrial ?? false}
        summary={choice ? summaryOf(choice) : ''}
        onClose={() => setChoice(null)}
        onSubmit={buy}
      />
    </div>
  )
}

function summaryOf({ tier, interval, users, discount }: Choice): string {
  if (tier.isTrial) return `${tier.name} — ${t.free}`
  const perUser = interval === 12 ? tier.pricePerUserYear : (discount?.discountPrice ?? tier.pricePerUserMonth)
  const period = interval === 12 ? t.perYear : t.perMonth
  const summary = `${tier.name}, ${t.users(users)}, ${interval === 12 ? t.yearly.toLowerCase() : t.monthly.toLowerCase()}: ${formatEuros(perUser * users)} ${period}`
  return discount ? `${summary}. ${discountTerms(discount, tier, t)}` : summary
}

/** The checkout the page sent the browser to, if it did and nothing settled it since. */
function readCheckoutStarted(): number | null {
  const value = Number(window.sessionStorage.getItem(CHECKOUT_STARTED_KEY))
  return Number.isFinite(value) && value > 0 ? value : null
}

/** The time, renewed every 5 s, so an open payment turns expired while the page is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 5_000)
    return () => window.clearInterval(timer)
  }, [])
  return now
}

const clock = new Intl.DateTimeFormat('nl-NL', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Amsterdam' })

/** The payments the user started and can still finish: go on paying at the provider, or cancel. */
function OpenPayments({ payments, onChanged }: { payments: Payment[]; onChanged: () => Promise<void> }) {
  const [busy, setBusy] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  if (payments.length === 0) return null
  const cancel = async (id: string) => {
    setBusy(id)
    setMessage(null)
    try {
      await cancelPayment(id)
    } catch (failure) {
      setMessage(failure instanceof ApiError ? failure.message : t.loadFailed)
      window.setTimeout(() => setMessage(null), 10_000)
    } finally {
      setBusy(null)
      await onChanged()
    }
  }
  return (
    <section aria-labelledby="open-betalingen" className="mt-8">
      <h2 id="open-betalingen" className="text-xl font-semibold text-slate-900">
        {t.openPayments}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t.openPaymentsHelp}</p>
      {message && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {message}
        </p>
      )}
      <ul className={`${card} mt-4 divide-y divide-slate-100`}>
        {payments.map((p) => (
          <li key={p.id} aria-label={p.description} className="flex flex-wrap items-center justify-between gap-3 px-6 py-4 text-sm">
            <div className="min-w-0">
              <p className="font-medium break-words text-slate-900">{p.description}</p>
              <p className="text-slate-600">
                {formatEuros(p.amount)}
                {p.expiresAt && ` · ${t.payableUntil(clock.format(new Date(p.expiresAt)))}`}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              {p.checkoutUrl && (
                <a href={p.checkoutUrl} className={primaryButtonClass}>
                  {t.continuePayment}
                </a>
              )}
              <button type="button" disabled={busy === p.id} onClick={() => void cancel(p.id)} className={secondaryButtonClass}>
                {t.cancelPayment}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

function StatusBadge({ active, label }: { active: boolean; label?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${active ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${active ? 'bg-emerald-500' : 'bg-slate-400'}`} />
      {label ?? (active ? t.active : t.inactive)}
    </span>
  )
}

/** Subscriptions of others the user may use: a seat on a colleague's, or through an organisation. */
function OthersSection({
  id,
  title,
  items,
}: {
  id: string
  title: string
  items: readonly (OtherSubscription | OrganisationSubscription)[]
}) {
  if (items.length === 0) return null
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <ul className={`${card} mt-4 divide-y divide-slate-100`}>
        {items.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 px-6 py-4 text-sm">
            <span className="font-medium text-slate-900">{s.description}</span>
            <span className="flex items-center gap-3 text-slate-600">
              {s.validUntil && `${t.validUntil} ${formatDate(s.validUntil)}`}
              <StatusBadge active={s.active} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

function OwnSubscription({
  subscription: s,
  tier,
  awaitingPayment,
  onChanged,
}: {
  subscription: Subscription
  tier: Tier | undefined
  awaitingPayment: boolean
  onChanged: () => Promise<void>
}) {
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{
    tone: 'error' | 'warning'
    text: string
  } | null>(null)

  const say = (tone: 'error' | 'warning', text: string) => {
    setMessage({ tone, text })
    window.setTimeout(() => setMessage(null), 10_000)
  }

  const cancel = async () => {
    setBusy(true)
    try {
      await cancelSubscription(s.id)
      setConfirming(false)
      await onChanged()
    } catch (failure) {
      setConfirming(false)
      say('error', failure instanceof ApiError ? failure.message : t.loadFailed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <article aria-label={s.description} className={`${card} p-6`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-base font-semibold text-slate-900">{s.description}</h3>
          <p className="mt-1 text-sm text-slate-600">
            {t.users(s.userAmount)}
            {s.isTrial ? ` · ${t.trial}` : ` · ${cancellationTerms(s.intervalMonths, t)}`}
            {!s.isTrial && ` · ${discountedPrice(s, tier) ?? `${formatEuros(s.amount)} ${s.intervalMonths === 12 ? t.perYear : t.perMonth}`}`}
          </p>
        </div>
        <StatusBadge
          active={s.isActive}
          label={s.isActive ? (s.canceledAt ? `${t.active} · ${t.canceled}` : t.active) : awaitingPayment ? t.awaitingPayment : t.inactive}
        />
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {s.validUntil && (
          <div>
            <dt className="text-slate-500">{t.endsOn}</dt>
            <dd className="font-medium text-slate-900">{`${formatDate(s.validUntil)} 23:59`}</dd>
          </div>
        )}
        {showNextPayment(s) && s.nextPaymentDate && (
          <div>
            <dt className="text-slate-500">{t.nextPayment}</dt>
            <dd className="font-medium text-slate-900">{formatDate(s.nextPaymentDate)}</dd>
          </div>
        )}
      </dl>
      {s.canLinkUsers && <LinkedUsers subscription={s} onChanged={onChanged} say={say} />}
      {message && (
        <p role="alert" className={`mt-4 text-sm font-medium ${message.tone === 'error' ? 'text-red-700' : 'text-amber-800'}`}>
          {message.text}
        </p>
      )}
      {canCancel(s) && (
        <div className="mt-4">
          <button type="button" onClick={() => setConfirming(true)} className="text-sm font-semibold text-red-700 hover:text-red-800">
            {t.cancel}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={t.cancelTitle}
        message={t.cancelMessage(s.validUntil ? `${formatDate(s.validUntil)} 23:59` : '')}
        confirmLabel={t.cancelConfirm}
        busy={busy}
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(false)}
      />
    </article>
  )
}

function LinkedUsers({
  subscription: s,
  onChanged,
  say,
}: {
  subscription: Subscription
  onChanged: () => Promise<void>
  say: (tone: 'error' | 'warning', text: string) => void
}) {
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  // an address without an account, waiting for the owner to confirm its invitation
  const [inviting, setInviting] = useState<string | null>(null)
  const [removing, setRemoving] = useState<Seat | null>(null)

  const link = async (address: string, invite: boolean) => {
    setBusy(true)
    try {
      const added = await addLinkedUser(s.id, address, invite)
      setEmail('')
      setInviting(null)
      if (added.warning) say('warning', added.warning)
      await onChanged()
    } catch (failure) {
      if (!invite && needsInvitation(failure)) {
        setInviting(address)
        return
      }
      setInviting(null)
      say('error', failure instanceof ApiError ? failure.message : t.loadFailed)
    } finally {
      setBusy(false)
    }
  }

  const add = async (event: FormEvent) => {
    event.preventDefault()
    const address = normaliseEmail(email)
    if (!address) return say('error', t.noEmail)
    await link(address, false)
  }

  const remove = async (seat: Seat) => {
    setBusy(true)
    try {
      await removeLinkedUser(seat.id)
      setRemoving(null)
      await onChanged()
    } catch (failure) {
      setRemoving(null)
      say('error', failure instanceof ApiError ? failure.message : t.loadFailed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="mt-5 border-t border-slate-100 pt-4">
      <h4 className="text-sm font-semibold text-slate-900">{t.linkedUsers}</h4>
      <p className="mt-1 text-sm text-slate-600">{t.linkedUsersHelp}</p>
      {overFairUse(s) && <p className="mt-2 text-sm font-medium text-amber-800">{t.fairUse}</p>}
      {s.linkedSubscriptions.length > 0 && (
        <ul className="mt-3 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {s.linkedSubscriptions.map((seat) => (
            <li key={seat.id} className="flex items-center justify-between gap-2 px-4 py-2 text-sm">
              <span className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">
                {seatLabel(seat)}
                {!seat.userId && <span className="ml-2 text-slate-500">({t.noAccountYet})</span>}
              </span>
              <button type="button" disabled={busy} onClick={() => setRemoving(seat)} className={`${iconButtonClass} shrink-0`}>
                <Icon name="trash" className="size-4" />
                {t.removeUser}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form noValidate onSubmit={(e) => void add(e)} className="mt-3 flex flex-wrap items-end gap-2">
        <label className="block min-w-0 flex-1 basis-60 text-sm font-medium text-slate-700">
          {t.addUserLabel}
          <input
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="mt-1 block w-full rounded-md border-0 px-3 py-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700"
          />
        </label>
        <button type="submit" disabled={busy} className={secondaryButtonClass}>
          {t.addUser}
        </button>
      </form>
      <ConfirmDialog
        open={inviting !== null}
        title={t.inviteTitle}
        message={t.inviteMessage(inviting ?? '')}
        confirmLabel={t.inviteConfirm}
        busy={busy}
        onConfirm={() => inviting && void link(inviting, true)}
        onClose={() => setInviting(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t.removeSeatTitle}
        message={t.removeSeatMessage(removing ? seatLabel(removing) : '')}
        confirmLabel={t.removeSeatConfirm}
        busy={busy}
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </div>
  )
}

type Seat = Subscription['linkedSubscriptions'][number]

/**
 * The price of a subscription bought with a discount while the discount holds: "€ 1,00 per maand
 * tot en met 22 december 2026, daarna € 49,00 per maand"; null without one.
 */
function discountedPrice(s: Subscription, tier: Tier | undefined): string | null {
  const fullFrom = s.renewSubscriptionWithoutDiscountDate
  if (s.discountId == null || fullFrom == null || tier == null || s.isTrial) return null
  const lastDay = new Date(Date.parse(`${fullFrom}T00:00:00Z`) - 86_400_000)
  return t.discountUntil(formatEuros(s.amount), formatDate(lastDay), formatEuros(tier.pricePerUserMonth * s.userAmount))
}

/**
 * Starts the download of an invoice: our own signed link downloads in place (it answers as an
 * attachment); a bookkeeping provider's link opens in a new tab.
 */
function openDownload(link: string) {
  const anchor = document.createElement('a')
  anchor.href = link
  anchor.rel = 'noopener'
  if (new URL(link, window.location.href).origin === window.location.origin) anchor.download = ''
  else anchor.target = '_blank'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
}

function PaymentsTable({ payments, now }: { payments: Payment[]; now: number }) {
  const [message, setMessage] = useState<string | null>(null)
  const download = async (id: string) => {
    setMessage(null)
    try {
      const link = await invoiceLink(id)
      if (!link) throw new Error(t.invoiceFailed)
      openDownload(link)
    } catch (failure) {
      setMessage(failure instanceof ApiError && failure.status === 409 ? failure.message : t.invoiceFailed)
      window.setTimeout(() => setMessage(null), 10_000)
    }
  }
  return (
    <section aria-labelledby="betalingen" className="mt-10 mb-8">
      <h2 id="betalingen" className="text-xl font-semibold text-slate-900">
        {t.payments}
      </h2>
      {message && (
        <p role="alert" className="mt-2 text-sm font-medium text-amber-800">
          {message}
        </p>
      )}
      {payments.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t.noPayments}</p>
      ) : (
        <div className={`${card} relative mt-4 overflow-x-auto`}>
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t.paymentColumns.date}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t.paymentColumns.description}
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  {t.paymentColumns.amount}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t.paymentColumns.status}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <span className="sr-only">{t.paymentColumns.invoice}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {payments.map((p) => (
                <tr key={p.id}>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDate(p.createdAt)}</td>
                  <td className="px-4 py-3 text-slate-900">{p.description}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap text-slate-900">{formatEuros(p.amount)}</td>
                  <td className="px-4 py-3 whitespace-nowrap">
                    <span className={p.paymentStatus === 'PAID' ? 'font-semibold text-emerald-700' : 'text-slate-700'}>
                      {isExpiredOpen(p, now) ? t.status.EXPIRED : t.status[p.paymentStatus]}
                    </span>
                  </td>
                  <td className="px-4 py-3 text-right">
                    {p.paymentStatus === 'PAID' && p.amount > 0 && (
                      <button type="button" onClick={() => void download(p.id)} className={iconButtonClass}>
                        <Icon name="document" className="size-4" />
                        {t.invoice}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
