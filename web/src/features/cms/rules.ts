/** The CMS's pure rules: date input, invoice details, the bookkeeping cell, paging and what the info modal shows. */
import type { components } from '@/api/schema'
import { jobStateText, type JobState } from '@/features/jobs'
import { firstAddressProblem } from '@/features/subscription'
import { cmsTexts as t } from './texts'

/** Modal errors clear after 8 seconds (§8, §9). */
export const MODAL_MESSAGE_MS = 8_000

/** The HIS tab's red line ('Kon HIS niet verwijderen, …') and its add error clear after 10 seconds (§8). */
export const HIS_MESSAGE_MS = 10_000

/** The search boxes wait this long after the last key press. */
export const SEARCH_DEBOUNCE_MS = 300

// ---- dates (§5) ----

const YMD = /^(19|20)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

/** `yyyy-mm-dd` with a year 19xx or 20xx, month 01-12 and day 01-31 (the api checks that the day exists). */
export function isDateYmd(value: string): boolean {
  return YMD.test(value.trim())
}

/** The valid-until modal's check: the date-format message, or null. */
export function validUntilProblem(value: string): string | null {
  return isDateYmd(value) ? null : t.dates.format
}

/** The renew modal's check: 'Geen datum ingevuld' when empty, else the date-format message, or null. */
export function renewDateProblem(value: string): string | null {
  if (value.trim() === '') return t.dates.missing
  return validUntilProblem(value)
}

// ---- invoice details (§5) ----

export interface InvoiceForm {
  contactName: string
  practiceName: string
  phoneNumber: string
  streetAddress: string
  houseNumber: string
  houseNumberAddition: string
  postcode: string
  city: string
  kvkNumber: string
}

export const invoiceFields: readonly (keyof InvoiceForm)[] = [
  'contactName',
  'practiceName',
  'phoneNumber',
  'streetAddress',
  'houseNumber',
  'houseNumberAddition',
  'postcode',
  'city',
  'kvkNumber',
]

/** The form filled with what a payment holds (absent values as empty text). */
export function invoiceFormOf(payment: { [K in keyof InvoiceForm]?: string | null }): InvoiceForm {
  return Object.fromEntries(invoiceFields.map((field) => [field, payment[field] ?? ''])) as unknown as InvoiceForm
}

/**
 * The first failing check of the staff's invoice-details modal, in the spec's order, with its field:
 * the billing dialog's address checks (name, phone, street, house number, postcode, city). Practice
 * name, addition and KvK number are optional.
 */
export function firstInvoiceProblem(form: InvoiceForm): { field: keyof InvoiceForm; message: string } | null {
  return firstAddressProblem(form)
}

// ---- the bookkeeping cell of Betalingen (§2.3) ----

export type Bookkeeping = components['schemas']['BookkeepingState']
export type BookkeepingAction = 'contact' | 'invoice'

export type BookkeepingView =
  | { kind: 'action'; action: BookkeepingAction }
  | { kind: 'busy' }
  | { kind: 'done' }
  | { kind: 'notNeeded' }
  | { kind: 'none' }
  | { kind: 'failed'; error: string | null; action: BookkeepingAction | null }

export interface BookkeepingInput {
  /** What the payment needs, as the api says. */
  bookkeeping: Bookkeeping
  /** The job followed for this payment: one started here, or the one the api lists on the payment. */
  job?: { state: JobState; lastError?: string | null } | null
  /** The payment's `bookkeeping` when the job followed was started here. */
  startedFrom?: Bookkeeping | null
  /** The start call is on its way. */
  starting?: boolean
}

const actionOf = (bookkeeping: Bookkeeping): BookkeepingAction | null =>
  bookkeeping === 'MAKE_CONTACT' ? 'contact' : bookkeeping === 'MAKE_INVOICE' ? 'invoice' : null

/**
 * What the cell shows: 'Moneybird contact maken' or 'Factuur maken' while one is needed; 'Bezig…'
 * while a job for it waits or runs (and after it succeeded until the payments are read again); a
 * green check once the invoice exists; nothing for a zero amount; a red cross otherwise, and with
 * the job's error when the job failed.
 */
export function bookkeepingView({ bookkeeping, job, startedFrom, starting }: BookkeepingInput): BookkeepingView {
  if (starting) return { kind: 'busy' }
  if (job && (job.state === 'queued' || job.state === 'running' || job.state === 'retrying')) return { kind: 'busy' }
  if (bookkeeping === 'DONE') return { kind: 'done' }
  if (bookkeeping === 'NOT_NEEDED') return { kind: 'notNeeded' }
  // done, but the payment as last read does not show it yet
  if (job?.state === 'succeeded' && startedFrom === bookkeeping) return { kind: 'busy' }
  const action = actionOf(bookkeeping)
  if (job && (job.state === 'failed' || job.state === 'dead')) return { kind: 'failed', error: job.lastError ?? null, action }
  if (action) return { kind: 'action', action }
  return { kind: 'none' }
}

// ---- paging ----

/** Pages of a list (at least one, so an empty list reads 'Pagina 1 van 1'). */
export function pageCount(total: number, pageSize: number): number {
  if (pageSize <= 0) return 1
  return Math.max(1, Math.ceil(total / pageSize))
}

/** 'Pagina X van Y' for a page counted from 0. */
export function pageLabel(page: number, total: number, pageSize: number): string {
  const pages = pageCount(total, pageSize)
  return t.pageOf(Math.min(page + 1, pages), pages)
}

// ---- the info modal ----

/** 'Betaald voor 1 maand', 'Betaald voor 12 maanden'. */
export function paidForText(months: number): string {
  return t.info.paidFor(months)
}

/** The number of users; 'gelijktijdige' when the subscription is not individual. */
export function userAmountText(userAmount: number, isIndividual: boolean): string {
  return t.info.users(userAmount, !isIndividual)
}

/** Active ones first, then the latest valid-until first (one without a date last). */
export function byActiveThenValidUntil<T extends { active: boolean; validUntil?: string | null }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => {
    if (a.active !== b.active) return a.active ? -1 : 1
    const av = a.validUntil ?? ''
    const bv = b.validUntil ?? ''
    return av === bv ? 0 : av < bv ? 1 : -1
  })
}

/** Street, house number and addition on one line. */
export function addressLine(p: { streetAddress?: string | null; houseNumber?: string | null; houseNumberAddition?: string | null }): string {
  return [p.streetAddress, p.houseNumber, p.houseNumberAddition]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ')
}

/** Shows the next-payment date: active and not cancelled, and there is one. */
export function showsNextPayment(s: { isActive: boolean; canceledAt?: string | null; nextPaymentDate?: string | null }): boolean {
  return s.isActive && !s.canceledAt && Boolean(s.nextPaymentDate)
}

// ---- HIS ----

export type AccessType = components['schemas']['AccessType']

/** A user's access in Dutch: 'Organisatie', 'Betaald', 'Gekoppeld', 'Proef', 'Verlopen' or 'Geen'. */
export function accessTypeText(type: AccessType): string {
  return t.accessTypes[type]
}

/** EXPIRED and NONE: no access today; such rows come first and are red, the others green (§2.3). */
export function isWithoutAccess(type: AccessType): boolean {
  return type === 'EXPIRED' || type === 'NONE'
}

/** A HIS in the dropdown: its name and its number of users ('Medicom (3 gebruikers)'). */
export function hisOptionText(his: { name: string; users: number }): string {
  return t.his.option(his.name, his.users)
}

/** The HIS shown: the one chosen while it is still in the list, else the first; null for an empty list. */
export function shownHis<H extends { id: string }>(list: readonly H[], chosen: string | null): H | null {
  return list.find((his) => his.id === chosen) ?? list[0] ?? null
}

// ---- Achtergrondtaken ----

/** A problem's state in Dutch: 'Wordt opnieuw geprobeerd', 'Mislukt' or 'Opgegeven'. */
export function problemState(state: JobState): string {
  return state === 'retrying' || state === 'failed' || state === 'dead' ? t.jobs.states[state] : jobStateText(state)
}
