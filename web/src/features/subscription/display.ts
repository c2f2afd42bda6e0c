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
