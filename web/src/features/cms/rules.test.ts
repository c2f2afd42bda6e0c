import { describe, expect, it } from 'vitest'
import {
  accessTypeText,
  addressLine,
  bookkeepingView,
  byActiveThenValidUntil,
  firstInvoiceProblem,
  hisOptionText,
  invoiceFormOf,
  isDateYmd,
  isWithoutAccess,
  pageCount,
  pageLabel,
  paidForText,
  problemState,
  renewDateProblem,
  showsNextPayment,
  shownHis,
  userAmountText,
  validUntilProblem,
  type InvoiceForm,
} from './rules'

const FORMAT = 'Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30'

describe('the date format (yyyy-mm-dd, 19xx/20xx, month 01-12, day 01-31)', () => {
  it('takes days of this and the last century, the spec\'s own example too', () => {
    for (const day of ['2024-02-30', '1999-12-31', '2026-01-01', ' 2026-11-21 ']) expect(isDateYmd(day), day).toBe(true)
  })

  it('refuses other years, months, days and shapes', () => {
    for (const day of ['2124-01-01', '1899-12-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32', '26-01-01', '2026-1-1', '01-01-2026', '2026/01/01', '', '2026-01-01x'])
      expect(isDateYmd(day), day).toBe(false)
  })

  it('says so in the spec\'s words', () => {
    expect(validUntilProblem('21-11-2026')).toBe(FORMAT)
    expect(validUntilProblem('')).toBe(FORMAT)
    expect(validUntilProblem('2026-11-21')).toBeNull()
  })

  it('asks for a date first in the renew modal', () => {
    expect(renewDateProblem('  ')).toBe('Geen datum ingevuld')
    expect(renewDateProblem('2026-1-1')).toBe(FORMAT)
    expect(renewDateProblem('2026-12-01')).toBeNull()
  })
})

describe('the invoice details, checked in the spec\'s order', () => {
  const full: InvoiceForm = {
    contactName: 'Anne de Vries',
    practiceName: '',
    phoneNumber: '0201234567',
    streetAddress: 'Lindelaan',
    houseNumber: '12',
    houseNumberAddition: '',
    postcode: '1234 ab',
    city: 'Utrecht',
    kvkNumber: '',
  }

  it('names the first missing field, one after the other', () => {
    const steps: [keyof InvoiceForm, string, string][] = [
      ['contactName', '', 'Geen naam ingevuld'],
      ['phoneNumber', '', 'Geen telefoonnummer ingevuld'],
      ['streetAddress', '', 'Geen straatnaaam ingevuld'],
      ['houseNumber', '', 'Geen huisnummer ingevuld'],
      ['postcode', '', 'Geen postcode ingevuld'],
      ['postcode', '123', "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'"],
      ['city', ' ', 'Geen plaatsnaam ingevuld'],
    ]
    // everything wrong at once: the messages come in this order as each is mended
    const form: InvoiceForm = { ...full, contactName: '', phoneNumber: '', streetAddress: '', houseNumber: '', postcode: '', city: ' ' }
    for (const [field, , message] of steps) {
      expect(firstInvoiceProblem(form)).toEqual({ field, message })
      if (field === 'postcode' && form.postcode === '') form.postcode = '123'
      else form[field] = full[field]
    }
    expect(firstInvoiceProblem(form)).toBeNull()
    for (const [field, value, message] of steps) expect(firstInvoiceProblem({ ...full, [field]: value })?.message).toBe(message)
  })

  it('leaves practice name, addition and KvK number optional, and takes the postcode rule of the billing dialog', () => {
    expect(firstInvoiceProblem(full)).toBeNull()
    expect(firstInvoiceProblem({ ...full, postcode: '1234AB' })).toBeNull()
    expect(firstInvoiceProblem({ ...full, postcode: '12345A' })?.field).toBe('postcode')
  })

  it('starts from what the payment holds', () => {
    expect(invoiceFormOf({ contactName: 'Anne', practiceName: null, postcode: undefined })).toMatchObject({ contactName: 'Anne', practiceName: '', postcode: '', kvkNumber: '' })
  })
})

describe('the bookkeeping cell', () => {
  it('offers the action the payment needs', () => {
    expect(bookkeepingView({ bookkeeping: 'MAKE_CONTACT' })).toEqual({ kind: 'action', action: 'contact' })
    expect(bookkeepingView({ bookkeeping: 'MAKE_INVOICE' })).toEqual({ kind: 'action', action: 'invoice' })
  })

  it('shows a green check once made, nothing for a zero amount, a red cross otherwise', () => {
    expect(bookkeepingView({ bookkeeping: 'DONE' })).toEqual({ kind: 'done' })
    expect(bookkeepingView({ bookkeeping: 'NOT_NEEDED' })).toEqual({ kind: 'notNeeded' })
    expect(bookkeepingView({ bookkeeping: 'NONE' })).toEqual({ kind: 'none' })
  })

  it('is busy while starting, and while the job waits, runs or will retry', () => {
    expect(bookkeepingView({ bookkeeping: 'MAKE_INVOICE', starting: true })).toEqual({ kind: 'busy' })
    for (const state of ['queued', 'running', 'retrying'] as const)
      expect(bookkeepingView({ bookkeeping: 'MAKE_INVOICE', job: { state } })).toEqual({ kind: 'busy' })
  })

  it('stays busy after success until the payments are read again, then shows what they say', () => {
    const job = { state: 'succeeded' as const }
    expect(bookkeepingView({ bookkeeping: 'MAKE_INVOICE', job, startedFrom: 'MAKE_INVOICE' })).toEqual({ kind: 'busy' })
    expect(bookkeepingView({ bookkeeping: 'DONE', job, startedFrom: 'MAKE_INVOICE' })).toEqual({ kind: 'done' })
    // the contact is made: the next step is the invoice
    expect(bookkeepingView({ bookkeeping: 'MAKE_INVOICE', job, startedFrom: 'MAKE_CONTACT' })).toEqual({ kind: 'action', action: 'invoice' })
  })

  it('shows the job\'s error with a red cross when it failed, and the action again', () => {
    expect(bookkeepingView({ bookkeeping: 'MAKE_INVOICE', job: { state: 'dead', lastError: 'Moneybird antwoordde niet' } })).toEqual({
      kind: 'failed',
      error: 'Moneybird antwoordde niet',
      action: 'invoice',
    })
    expect(bookkeepingView({ bookkeeping: 'NONE', job: { state: 'failed' } })).toEqual({ kind: 'failed', error: null, action: null })
    // made after all (another attempt): the check wins
    expect(bookkeepingView({ bookkeeping: 'DONE', job: { state: 'failed' } })).toEqual({ kind: 'done' })
  })
})

describe('paging', () => {
  it('counts at least one page', () => {
    expect(pageCount(0, 50)).toBe(1)
    expect(pageCount(50, 50)).toBe(1)
    expect(pageCount(51, 50)).toBe(2)
    expect(pageLabel(0, 0, 50)).toBe('Pagina 1 van 1')
    expect(pageLabel(1, 120, 50)).toBe('Pagina 2 van 3')
  })
})

describe('the info modal', () => {
  it('says for how many months a payment paid', () => {
    expect(paidForText(1)).toBe('Betaald voor 1 maand')
    expect(paidForText(12)).toBe('Betaald voor 12 maanden')
  })

  it('calls the users of a shared subscription gelijktijdige', () => {
    expect(userAmountText(1, true)).toBe('1 gebruiker')
    expect(userAmountText(3, false)).toBe('3 gelijktijdige gebruikers')
    expect(userAmountText(1, false)).toBe('1 gelijktijdige gebruiker')
  })

  it('lists active ones first, then the latest valid-until first', () => {
    const list = [
      { id: 'a', active: false, validUntil: '2026-12-01' },
      { id: 'b', active: true, validUntil: '2026-01-01' },
      { id: 'c', active: false, validUntil: null },
      { id: 'd', active: true, validUntil: '2027-01-01' },
      { id: 'e', active: false, validUntil: '2027-06-01' },
    ]
    expect(byActiveThenValidUntil(list).map((s) => s.id)).toEqual(['d', 'b', 'e', 'a', 'c'])
  })

  it('shows the next payment only for an active, not cancelled subscription', () => {
    expect(showsNextPayment({ isActive: true, canceledAt: null, nextPaymentDate: '2026-12-01' })).toBe(true)
    expect(showsNextPayment({ isActive: true, canceledAt: '2026-11-01T10:00:00Z', nextPaymentDate: '2026-12-01' })).toBe(false)
    expect(showsNextPayment({ isActive: false, canceledAt: null, nextPaymentDate: '2026-12-01' })).toBe(false)
    expect(showsNextPayment({ isActive: true, canceledAt: null, nextPaymentDate: null })).toBe(false)
  })

  it('puts the address on one line', () => {
    expect(addressLine({ streetAddress: 'Lindelaan', houseNumber: '12', houseNumberAddition: 'bis' })).toBe('Lindelaan 12 bis')
    expect(addressLine({ streetAddress: 'Lindelaan', houseNumber: '12', houseNumberAddition: null })).toBe('Lindelaan 12')
  })
})

describe('the states of failed background work', () => {
  it('reads in Dutch', () => {
    expect(problemState('retrying')).toBe('Wordt opnieuw geprobeerd')
    expect(problemState('failed')).toBe('Mislukt')
    expect(problemState('dead')).toBe('Opgegeven')
  })
})

describe('the HIS tab', () => {
  it('names every access type in Dutch', () => {
    expect(accessTypeText('ORGANISATION')).toBe('Organisatie')
    expect(accessTypeText('PAID')).toBe('Betaald')
    expect(accessTypeText('LINKED')).toBe('Gekoppeld')
    expect(accessTypeText('TRIAL')).toBe('Proef')
    expect(accessTypeText('EXPIRED')).toBe('Verlopen')
    expect(accessTypeText('NONE')).toBe('Geen')
  })

  it('shows EXPIRED and NONE in red, the others in green', () => {
    expect(isWithoutAccess('EXPIRED')).toBe(true)
    expect(isWithoutAccess('NONE')).toBe(true)
    for (const type of ['ORGANISATION', 'PAID', 'LINKED', 'TRIAL'] as const) expect(isWithoutAccess(type), type).toBe(false)
  })

  it('shows a HIS with its number of users', () => {
    expect(hisOptionText({ name: 'Medicom', users: 0 })).toBe('Medicom (0 gebruikers)')
    expect(hisOptionText({ name: 'Medicom', users: 1 })).toBe('Medicom (1 gebruiker)')
    expect(hisOptionText({ name: 'MicroHIS', users: 12 })).toBe('MicroHIS (12 gebruikers)')
  })

  it('shows the chosen HIS while it exists, else the first', () => {
    const list = [{ id: 'a' }, { id: 'b' }]
    expect(shownHis(list, 'b')).toEqual({ id: 'b' })
    expect(shownHis(list, null)).toEqual({ id: 'a' })
    // the chosen one was deleted
    expect(shownHis(list, 'gone')).toEqual({ id: 'a' })
    expect(shownHis([], 'a')).toBeNull()
  })
})
