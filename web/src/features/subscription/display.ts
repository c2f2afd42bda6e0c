/** The display rules of the subscription page (spec §2.1). Days are `YYYY-MM-DD`, compared in UTC. */
import type { components } from '@/api/schema'

export type Subscription = components['schemas']['Subscription']
export type OtherSubscription = components['schemas']['OtherSubscription']
export type OrganisationSubscription = components['schemas']['OrganisationSubscription']
export type Payment = components['schemas']['Payment']
export type Tier = components['schemas']['TierBody']
export type PaymentStatus = components['schemas']['PaymentStatus']

/** Today as `YYYY-MM-DD` in UTC (dates on this page are shown in UTC). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10)
}

/** A subscription whose valid-until has passed is hidden; one without a date yet (awaiting its first payment) shows. */
export function isShown(validUntil: string | null | undefined, today: string): boolean {
  return validUntil == null || validUntil >= today
}

/** The red expired message: when every subscription (own ones that were ever active, linked, organisation) is inactive — and there was one. */
export function showExpired(
  own: readonly Pick<Subscription, 'isActive'>[],
  linked: readonly Pick<OtherSubscription, 'active'>[],
  organisation: readonly Pick<OrganisationSubscription, 'active'>[],
): boolean {
  const all = [...own.map((s) => s.isActive), ...linked.map((s) => s.active), ...organisation.map((s) => s.active)]
  return all.length > 0 && all.every((active) => !active)
}

/** The next-payment date: only for an active subscription with one, that differs from its end date. */
export function showNextPayment(s: Pick<Subscription, 'isActive' | 'nextPaymentDate' | 'validUntil' | 'isTrial'>): boolean {
  return s.isActive && !s.isTrial && s.nextPaymentDate != null && s.nextPaymentDate !== s.validUntil
}

/** The cancel link: active and not cancelled (a trial ends by itself). */
export function canCancel(s: Pick<Subscription, 'isActive' | 'canceledAt' | 'isTrial'>): boolean {
  return s.isActive && s.canceledAt == null && !s.isTrial
}

/** 'Maandelijks opzegbaar' or 'Jaarlijks opzegbaar'. */
export function cancellationTerms(intervalMonths: number, texts: { monthlyTerms: string; yearlyTerms: string }): string {
  return intervalMonths === 12 ? texts.yearlyTerms : texts.monthlyTerms
}

/** The fair-use warning: more linked users than purchased users (as the api warns when a seat is added). */
export function overFairUse(s: Pick<Subscription, 'userAmount' | 'linkedSubscriptions'>): boolean {
  return s.linkedSubscriptions.length > s.userAmount
}

/** A payment that may still change: the page keeps asking until it settles. */
export function isUnsettled(status: PaymentStatus): boolean {
  return status === 'OPEN' || status === 'PENDING' || status === 'AUTHORIZED'
}

/** The e-mail address of a seat as it is sent: trimmed and lowercased (§5). */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase()
}

/** An OPEN payment past the provider's expiry: shown as expired, never as waiting. */
export function isExpiredOpen(p: Pick<Payment, 'paymentStatus' | 'expiresAt'>, now: number): boolean {
  return p.paymentStatus === 'OPEN' && p.expiresAt != null && Date.parse(p.expiresAt) <= now
}

/** A payment that may still change and has not expired. */
export function isUnderWay(p: Pick<Payment, 'paymentStatus' | 'expiresAt'>, now: number): boolean {
  return isUnsettled(p.paymentStatus) && !isExpiredOpen(p, now)
}

/** An open payment the user can go on paying or cancel: OPEN, not expired, with the provider's checkout. */
export function isResumable(p: Pick<Payment, 'paymentStatus' | 'expiresAt' | 'checkoutUrl'>, now: number): boolean {
  return p.paymentStatus === 'OPEN' && p.checkoutUrl != null && !isExpiredOpen(p, now)
}

/**
 * The payment behind 'De betaling is niet gelukt…': the newest first payment that ended unpaid
 * (failed, canceled, expired, or OPEN past its expiry), unless a newer first payment was paid.
 * Payments still under way do not hide it: a failure shows whatever else is open.
 */
export function lastFailure(payments: readonly Payment[], now: number): Payment | undefined {
  for (const p of payments) {
    if (!p.isFirstPayment) continue
    if (p.paymentStatus === 'PAID') return undefined
    if (p.paymentStatus === 'FAILED' || p.paymentStatus === 'CANCELED' || p.paymentStatus === 'EXPIRED' || isExpiredOpen(p, now)) return p
  }
  return undefined
}

/** Where the page notes that it sent the browser to the provider's checkout (ms since 1970). */
export const CHECKOUT_STARTED_KEY = 'spreekkamer.subscription.checkoutStartedAt'

/** Payments made this long before the page sent the browser away still count as just started (clocks differ). */
const CLOCK_SLACK_MS = 5 * 60_000

/**
 * The payments the page just started and waits for: first payments under way, made since the page
 * sent the browser to the checkout (`startedAt`). None when the page started nothing.
 */
export function justStarted(payments: readonly Payment[], startedAt: number | null, now: number): Payment[] {
  if (startedAt == null) return []
  return payments.filter((p) => p.isFirstPayment && isUnderWay(p, now) && Date.parse(p.createdAt) >= startedAt - CLOCK_SLACK_MS)
}

/**
 * How often the page asks again while it waits for a payment it just started: every 2 s for the
 * first minute after the user came back, then every 10 s, after five minutes every 30 s.
 */
export function pollInterval(sinceReturnMs: number): number {
  if (sinceReturnMs < 60_000) return 2_000
  if (sinceReturnMs < 5 * 60_000) return 10_000
  return 30_000
}

/** A seat as the owner reads it: the colleague's name and address, or the address alone. */
export function seatLabel(seat: Pick<Subscription['linkedSubscriptions'][number], 'name' | 'emailAddress'>): string {
  if (seat.name && seat.emailAddress) return `${seat.name} (${seat.emailAddress})`
  return seat.name ?? seat.emailAddress ?? ''
}
