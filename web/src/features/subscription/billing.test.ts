import { describe, expect, it } from 'vitest'
import { billingMessages, emptyBillingForm, firstBillingProblem, isPostcode, messageDuration, TRIAL_USED, type BillingForm } from './billing'

const complete: BillingForm = {
  ...emptyBillingForm,
  contactName: 'Anne de Vries',
  phoneNumber: '0201234567',
  streetAddress: 'Lindelaan',
  houseNumber: '12',
  postcode: '1234 ab',
  city: 'Utrecht',
  sendInvoiceToEmail: 'administratie@praktijk.nl',
}

describe('firstBillingProblem', () => {
  it('names the problems in the spec’s order, one at a time', () => {
    const seen: string[] = []
    let form: BillingForm = { ...emptyBillingForm }
    for (;;) {
      const problem = firstBillingProblem(form)
      if (!problem) break
      seen.push(problem.message)
      form = {
        ...form,
        [problem.field]: problem.message === billingMessages.postcode ? '12' : complete[problem.field],
      }
    }
    expect(seen).toEqual([
      'Geen naam ingevuld',
      'Geen telefoonnummer ingevuld',
      'Geen straatnaaam ingevuld',
      'Geen huisnummer ingevuld',
      'Geen postcode ingevuld',
      "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'",
      'Geen plaatsnaam ingevuld',
      'Geen email ingevuld',
    ])
  })

  it('takes blanks as missing and leaves the optional fields alone', () => {
    expect(firstBillingProblem({ ...complete, contactName: '   ' })?.message).toBe('Geen naam ingevuld')
    expect(firstBillingProblem(complete)).toBeNull()
  })
})

describe('isPostcode', () => {
  it('is four digits and two letters, spaces allowed', () => {
    expect(isPostcode('1234AB')).toBe(true)
    expect(isPostcode('1234 ab')).toBe(true)
    expect(isPostcode('123AB')).toBe(false)
    expect(isPostcode('1234A')).toBe(false)
    expect(isPostcode('ABCD12')).toBe(false)
  })
})

describe('messageDuration', () => {
  it('shows the trial refusal 10 s and every billing message 5 s (§5, §8)', () => {
    expect(messageDuration(TRIAL_USED)).toBe(10_000)
    expect(messageDuration('Gebruiker heeft al eens een proefabonnement geactiveerd')).toBe(10_000)
    expect(messageDuration(billingMessages.contactName)).toBe(5_000)
  })
})
