import { describe, expect, it } from 'vitest'
import { discountAllowed, discountTerms, effectiveUsers, exclVat, featureList, formatEuros, parseUsers, priceOf } from './pricing'
import { subscriptionTexts } from './texts'

const practice = {
  isTrial: false,
  isIndividual: false,
  pricePerUserMonth: 3900,
  pricePerUserYear: 44460,
}
const individual = {
  isTrial: false,
  isIndividual: true,
  pricePerUserMonth: 4900,
  pricePerUserYear: 55860,
}
const trial = {
  isTrial: true,
  isIndividual: true,
  pricePerUserMonth: 0,
  pricePerUserYear: 0,
}

describe('exclVat', () => {
  it('is gross / 1.21 rounded half up, as the api computes it', () => {
    expect(exclVat(0)).toBe(0)
    expect(exclVat(121)).toBe(100)
    expect(exclVat(4900)).toBe(4050)
    expect(exclVat(55860)).toBe(46165)
    expect(exclVat(6049)).toBe(4999)
    expect(exclVat(6051)).toBe(5001)
    expect(exclVat(181)).toBe(150)
    expect(exclVat(1)).toBe(1)
  })

  it('leaves VAT that adds up to the gross amount and is nearest to gross / 1.21', () => {
    for (let gross = 0; gross < 200_000; gross += 7) {
      const excl = exclVat(gross)
      expect(Math.abs(121 * excl - 100 * gross)).toBeLessThanOrEqual(60)
    }
  })
})

describe('priceOf', () => {
  it('multiplies by the users of a practice tier', () => {
    expect(priceOf(practice, 12, 3)).toEqual({
      perUser: 44460,
      perUserExclVat: 36744,
      total: 133380,
      totalExclVat: 110231,
      users: 3,
    })
    expect(priceOf(practice, 1, 2).total).toBe(7800)
  })

  it('keeps an individual tier at one user', () => {
    expect(priceOf(individual, 1, 5).users).toBe(1)
    expect(priceOf(individual, 1, 5).total).toBe(4900)
  })

  it('takes a discount for monthly individual billing only', () => {
    expect(priceOf(individual, 1, 1, 2500).perUser).toBe(2500)
    expect(priceOf(individual, 12, 1, 2500).perUser).toBe(55860)
    expect(priceOf(practice, 1, 2, 2500).perUser).toBe(3900)
  })

  it('treats a user count below one or not whole as one', () => {
    expect(effectiveUsers(practice, 0)).toBe(1)
    expect(effectiveUsers(practice, 2.5)).toBe(1)
    expect(effectiveUsers(practice, Number.NaN)).toBe(1)
  })
})

describe('discountAllowed', () => {
  it('is for individual, non-trial, monthly', () => {
    expect(discountAllowed(individual, 1)).toBe(true)
    expect(discountAllowed(individual, 12)).toBe(false)
    expect(discountAllowed(practice, 1)).toBe(false)
    expect(discountAllowed(trial, 1)).toBe(false)
  })
})

describe('formatting', () => {
  it('writes Dutch euros', () => {
    expect(formatEuros(4900).replace(/\s/g, ' ')).toBe('€ 49,00')
    expect(formatEuros(133380).replace(/\s/g, ' ')).toBe('€ 1.333,80')
  })

  it('splits the features on commas', () => {
    expect(featureList('Gesproken consulten, SOEP-samenvattingen,,Templates')).toEqual([
      'Gesproken consulten',
      'SOEP-samenvattingen',
      'Templates',
    ])
  })
})

describe('parseUsers', () => {
  it('takes whole numbers from 1 to 1000 only', () => {
    expect(parseUsers('1')).toBe(1)
    expect(parseUsers(' 3 ')).toBe(3)
    expect(parseUsers('1000')).toBe(1000)
    for (const refused of ['0', '-1', '2.5', '2,5', '1001', '', 'drie', '1e2', '+3']) expect(parseUsers(refused)).toBeNull()
  })
})

describe('discountTerms', () => {
  it('says the discount holds for the first month and what is paid after', () => {
    expect(discountTerms({ discountPrice: 100 }, { pricePerUserMonth: 4900 }, subscriptionTexts).replace(/\s/g, ' ')).toBe(
      'De eerste maand € 1,00, daarna € 49,00 per maand.',
    )
  })
})
