/** The billing dialog's details and their checks in the spec's order (§5); the api checks again. */

export interface BillingForm {
  contactName: string
  practiceName: string
  sendInvoiceToEmail: string
  phoneNumber: string
  streetAddress: string
  houseNumber: string
  houseNumberAddition: string
  postcode: string
  city: string
  kvkNumber: string
}

export const emptyBillingForm: BillingForm = {
  contactName: '',
  practiceName: '',
  sendInvoiceToEmail: '',
  phoneNumber: '',
  streetAddress: '',
  houseNumber: '',
  houseNumberAddition: '',
  postcode: '',
  city: '',
  kvkNumber: '',
}

export const billingMessages = {
  contactName: 'Geen naam ingevuld',
  phoneNumber: 'Geen telefoonnummer ingevuld',
  streetAddress: 'Geen straatnaaam ingevuld',
  houseNumber: 'Geen huisnummer ingevuld',
  postcode: 'Geen postcode ingevuld',
  postcodePattern: "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'",
  city: 'Geen plaatsnaam ingevuld',
  sendInvoiceToEmail: 'Geen email ingevuld',
  sendInvoiceToEmailPattern: 'Ongeldig e-mailadres voor de factuur.',
  tooLong: 'Een van de factuurgegevens is te lang (hoogstens 200 tekens).',
} as const

/** The longest a billing field may be, in characters (the api's `MAX_FIELD`). */
export const MAX_FIELD = 200

/** The fields whose length the api checks, in its order. */
const LENGTH_CHECKED: (keyof BillingForm)[] = [
  'contactName',
  'practiceName',
  'sendInvoiceToEmail',
  'phoneNumber',
  'streetAddress',
  'houseNumber',
  'houseNumberAddition',
  'city',
  'kvkNumber',
]

/** One `@` with something on both sides and no white space, as the api checks an invoice address. */
export function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@')
  return at > 0 && at < value.length - 1 && value.indexOf('@', at + 1) === -1 && !/\s/.test(value)
}

/** How long a billing message shows (§9). */
export const BILLING_MESSAGE_MS = 5_000

/** The api's refusal of a second trial (spec §8), shown 10 s where the billing messages show 5 s. */
export const TRIAL_USED = 'Gebruiker heeft al eens een proefabonnement geactiveerd'

/** How long the dialog shows a message: the trial's refusal 10 s (§8), every other 5 s (§5). */
export function messageDuration(message: string): number {
  return message === TRIAL_USED ? 10_000 : BILLING_MESSAGE_MS
}

/** Four digits and two letters; spaces are allowed and dropped, as the api does. */
export function isPostcode(value: string): boolean {
  return /^\d{4}[A-Za-z]{2}$/.test(value.replace(/\s+/g, ''))
}

/** The address part of the billing details: the fields both the billing dialog and the staff's invoice-details modal check. */
export type AddressForm = Pick<BillingForm, 'contactName' | 'phoneNumber' | 'streetAddress' | 'houseNumber' | 'postcode' | 'city'>

/**
 * The first failing check of the address part, in the spec's order (§5): name, phone, street, house
 * number, postcode (empty, then the pattern), city; null when all pass. The staff's invoice-details
 * modal checks exactly these.
 */
export function firstAddressProblem(form: AddressForm): { field: keyof AddressForm; message: string } | null {
  const blank = (value: string) => value.trim() === ''
  if (blank(form.contactName)) return { field: 'contactName', message: billingMessages.contactName }
  if (blank(form.phoneNumber)) return { field: 'phoneNumber', message: billingMessages.phoneNumber }
  if (blank(form.streetAddress)) return { field: 'streetAddress', message: billingMessages.streetAddress }
  if (blank(form.houseNumber)) return { field: 'houseNumber', message: billingMessages.houseNumber }
  if (blank(form.postcode)) return { field: 'postcode', message: billingMessages.postcode }
  if (!isPostcode(form.postcode)) return { field: 'postcode', message: billingMessages.postcodePattern }
  if (blank(form.city)) return { field: 'city', message: billingMessages.city }
  return null
}

/**
 * The first failing check of the billing dialog, in the api's order (`validate_billing`): the
 * address, the invoice e-mail address (empty, then its form), then a field over 200 characters.
 * `domain/data/billing/cases.json` holds the cases both sides are tested with.
 */
export function firstBillingProblem(form: BillingForm): { field: keyof BillingForm; message: string } | null {
  const address = firstAddressProblem(form)
  if (address) return address
  const email = form.sendInvoiceToEmail.trim()
  if (email === '') return { field: 'sendInvoiceToEmail', message: billingMessages.sendInvoiceToEmail }
  if (!looksLikeEmail(email)) return { field: 'sendInvoiceToEmail', message: billingMessages.sendInvoiceToEmailPattern }
  const long = LENGTH_CHECKED.find((field) => [...form[field].trim()].length > MAX_FIELD)
  if (long) return { field: long, message: billingMessages.tooLong }
  return null
}
