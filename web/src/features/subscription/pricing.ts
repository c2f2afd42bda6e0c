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

/** The features as a list: the spec keeps them as one comma-separated text. */
export function featureList(features: string): string[] {
  return features
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
}
