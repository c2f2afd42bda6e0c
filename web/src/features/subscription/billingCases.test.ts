import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { firstBillingProblem, isPostcode, type BillingForm } from './billing'
import { exclVat, priceOf, type Interval } from './pricing'

// The cases the api's billing rules are tested with (domain/tests/billing_cases.rs): both sides must agree.
interface Cases {
  vat: { gross: number; exclVat: number; vat: number }[]
  prices: {
    why: string
    month: number
    year: number
    intervalMonths: Interval
    discount: number | null
    users: number
    perUser: number
    total: number
  }[]
  postcodes: { valid: [string, string][]; missing: string[]; invalid: string[] }
  complete: BillingForm
  details: { why: string; change: Partial<BillingForm>; field: keyof BillingForm | null; message: string | null }[]
}

// (a path in a variable: Vite rewrites `new URL('literal', import.meta.url)` into an asset URL)
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'))
const cases = read('../../../../domain/data/billing/cases.json') as Cases

describe('the billing rules, against the cases the api is tested with', () => {
  it('splits every amount as the api does', () => {
    expect(cases.vat.length).toBeGreaterThan(100)
    for (const { gross, exclVat: excl, vat } of cases.vat) {
      expect([exclVat(gross), gross - exclVat(gross)], `${gross}`).toEqual([excl, vat])
    }
  })

  it.each(cases.prices)('prices $why', ({ month, year, intervalMonths, discount, users, perUser, total }) => {
    // a discount's price is only offered on an individual tier, which has one user
    const tier = { isTrial: false, isIndividual: discount != null, pricePerUserMonth: month, pricePerUserYear: year }
    const price = priceOf(tier, intervalMonths, users, discount)
    expect([price.perUser, price.total]).toEqual([perUser, total])
  })

  it('takes the postcodes the api takes and refuses the others', () => {
    for (const [raw] of cases.postcodes.valid) expect(isPostcode(raw), raw).toBe(true)
    for (const raw of [...cases.postcodes.missing, ...cases.postcodes.invalid]) expect(isPostcode(raw), raw).toBe(false)
  })

  it.each(cases.details)('checks the billing details: $why', ({ change, field, message }) => {
    const problem = firstBillingProblem({ ...cases.complete, ...change })
    expect(problem).toEqual(field === null ? null : { field, message })
  })
})
