/**
 * Prices as the api computes them (domain::billing::money): integer cents, gross (VAT included), VAT 21 %
 * with the price excluding VAT rounded half up to the cent.
 */

export const VAT_PERCENT = 21

export type Interval = 1 | 12

/** The part of `gross` cents without VAT: gross / 1.21, rounded half up to the cent. */
export function exclVat(gross: number): number {
  const denominator = 100 + VAT_PERCENT
  return Math.floor((2 * gross * 100 + denominator) / (2 * denominator))
}

const euros = new Intl.NumberFormat('nl-NL', {
  style: 'currency',
  currency: 'EUR',
})

/** Cents as Dutch euros: "€ 49,00". */
export function formatEuros(cents: number): string {
  return euros.format(cents / 100)
}

export interface PricedTier {
  isTrial: boolean
  isIndividual: boolean
  pricePerUserMonth: number
  pricePerUserYear: number
}

/** The most users a subscription takes (the api's `MAX_USERS`). */
export const MAX_USERS = 1000

/**
 * The user count as typed: a whole number from 1 to 1000 (digits only, so 0, −1, 2.5 and 1001 are
 * refused at the field, before any price is shown); `null` when it is not one.
 */
export function parseUsers(text: string): number | null {
  const trimmed = text.trim()
  if (!/^\d{1,4}$/.test(trimmed)) return null
  const n = Number(trimmed)
  return n >= 1 && n <= MAX_USERS ? n : null
}

/** An individual tier always has one user; others at least one (the spec's default is 1). */
export function effectiveUsers(tier: Pick<PricedTier, 'isIndividual'>, users: number): number {
  if (tier.isIndividual) return 1
  return Number.isInteger(users) && users >= 1 ? users : 1
}

/** Whether a discount code may be entered: an individual, non-trial tier, billed monthly (§5). */
export function discountAllowed(tier: Pick<PricedTier, 'isTrial' | 'isIndividual'>, interval: Interval): boolean {
  return tier.isIndividual && !tier.isTrial && interval === 1
}

export interface Price {
  perUser: number
  perUserExclVat: number
  total: number
  totalExclVat: number
  users: number
}

/** The price per user and in total for an interval, a user count and a discount's price. */
export function priceOf(tier: PricedTier, interval: Interval, users: number, discountPrice?: number | null): Price {
  const n = effectiveUsers(tier, users)
  const perUser =
    interval === 12
      ? tier.pricePerUserYear
      : discountPrice != null && discountAllowed(tier, interval)
        ? discountPrice
        : tier.pricePerUserMonth
  const total = perUser * n
  return {
    perUser,
    perUserExclVat: exclVat(perUser),
    total,
    totalExclVat: exclVat(total),
    users: n,
  }
}

/**
 * How long a discount holds and what is paid after it: the discount's price replaces the monthly
 * price of the first period only (the api bills the renewals at the tier's price), so "De eerste
 * maand € 1,00, daarna € 49,00 per maand." for a tier of € 49,00 per user per month.
 */
export function discountTerms(
  discount: { discountPrice: number },
  tier: Pick<PricedTier, 'pricePerUserMonth'>,
  texts: { discountTerms: (first: string, after: string) => string },
): string {
  return texts.discountTerms(formatEuros(discount.discountPrice), formatEuros(tier.pricePerUserMonth))
}

/** The features as a list: the spec keeps them as one comma-separated text. */
export function featureList(features: string): string[] {
  return features
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
}
