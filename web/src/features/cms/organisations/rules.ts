/**
 * The pure rules of Organisaties and Organisatie abonnementen: the labels of §9, how a term reads,
 * and the checks of the forms in the spec's order (§5), the same order the api checks them in, so
 * the first problem shows before anything is sent.
 */
import { day } from '../format'
import { isDateYmd } from '../rules'
import { cmsTexts } from '../texts'
import { organisationTexts as t } from './texts'

const m = t.messages

// ---- labels (§9) ----

export type OrganisationType = keyof typeof t.types
export type ProductType = 'ION' | 'USER'

/** The organisation types, by their Dutch name. */
export const organisationTypes: readonly OrganisationType[] = (Object.keys(t.types) as OrganisationType[]).sort((a, b) =>
  t.types[a].localeCompare(t.types[b], 'nl'),
)

export const productTypes: readonly ProductType[] = ['ION', 'USER']

/** 'Praktijk' for PRACTICE; a type the list does not know as it is. */
export function typeLabel(type: string | null | undefined): string {
  if (!type) return cmsTexts.none
  return type in t.types ? t.types[type as OrganisationType] : type
}

/** 'ION abonnement', 'Gebruikers abonnement', or 'Leeg' when there is none. */
export function productLabel(product: string | null | undefined): string {
  if (!product) return t.products.none
  return product === 'ION' || product === 'USER' ? t.products[product] : product
}

// ---- terms ----

/** 'start – end' as days; without a start (it starts at once) 'tot en met end'. */
export function termText(start: string | null | undefined, end: string | null | undefined): string {
  if (!start && !end) return cmsTexts.none
  if (!start) return `tot en met ${day(end)}`
  return `${day(start)} – ${day(end)}`
}

/**
 * A main organisation's Looptijd: its term, or 'Per suborganisatie' when it keeps none (its
 * valid-until is then 1970-01-01, which is not shown).
 */
export function mainTermText(main: { validDateMainLevel: boolean; startDate?: string | null; validUntil: string }): string {
  if (!main.validDateMainLevel) return t.main.perSub
  return termText(main.startDate, main.validUntil)
}

// ---- the forms (§5) ----

const blank = (value: string) => value.trim() === ''

/**
 * A term typed in a form whose end is required: 'Einddatum niet ingevuld', the end's format
 * (the shared date-format message), the start's format (optional start), then the order.
 */
function formTermProblem(start: string, end: string): string | null {
  if (blank(end)) return m.endMissing
  if (!isDateYmd(end)) return cmsTexts.dates.format
  if (!blank(start) && !isDateYmd(start)) return m.startFormat
  if (!blank(start) && start.trim() > end.trim()) return m.endBeforeStart
  return null
}

export interface MainForm {
  organizationName: string
  agbCode: string
  /** '' until one is chosen. */
  type: string
  /** '' for none ('Leeg'). */
  productType: string
  /** 'Looptijd op hoofdniveau'. */
  validDateMainLevel: boolean
  startDate: string
  validUntil: string
}

export const emptyMainForm: MainForm = {
  organizationName: '',
  agbCode: '',
  type: '',
  productType: '',
  validDateMainLevel: false,
  startDate: '',
  validUntil: '',
}

/**
 * The add row's first problem: 'Naam niet ingevuld', 'AGB code niet ingevuld', the term when it is
 * kept on the main level ('Einddatum niet ingevuld', the date format, 'Startdatum geen goed format
 * ingevuld, …', 'Einddatum kan niet eerder zijn dan de startdatum.'), 'Categorie niet ingevuld'.
 */
export function newMainProblem(form: MainForm): string | null {
  if (blank(form.organizationName)) return m.nameMissing
  if (blank(form.agbCode)) return m.agbMissing
  if (form.validDateMainLevel) {
    const term = formTermProblem(form.startDate, form.validUntil)
    if (term) return term
  }
  if (blank(form.type)) return m.categoryMissing
  return null
}

/** The inline edit's first problem: the name, 'Agbcode niet ingevuld', 'Type niet ingevuld'. */
export function editMainProblem(form: Pick<MainForm, 'organizationName' | 'agbCode' | 'type'>): string | null {
  if (blank(form.organizationName)) return m.nameMissing
  if (blank(form.agbCode)) return m.inlineAgbMissing
  if (blank(form.type)) return m.typeMissing
  return null
}

export interface SubForm {
  organizationName: string
  agbCode: string
  type: string
  productType: string
  startDate: string
  validUntil: string
}

/** A new sub-organisation is a PRACTICE unless another type is chosen. */
export const emptySubForm: SubForm = {
  organizationName: '',
  agbCode: '',
  type: 'PRACTICE',
  productType: '',
  startDate: '',
  validUntil: '',
}

/**
 * A sub-organisation's first problem: 'Type niet ingevuld', 'AGBCode niet ingevuld', the name, and
 * when the main organisation keeps no term its own ('Einddatum niet ingevuld', the formats, the order).
 */
export function subProblem(form: SubForm, termOnMain: boolean): string | null {
  if (blank(form.type)) return m.typeMissing
  if (blank(form.agbCode)) return m.subAgbMissing
  if (blank(form.organizationName)) return m.nameMissing
  if (!termOnMain) return formTermProblem(form.startDate, form.validUntil)
  return null
}

/**
 * The Looptijd modal's first problem: the end's format (it is required), the start's format (it
 * is optional: empty starts at once), then the order.
 */
export function durationProblem(start: string, end: string): string | null {
  if (!isDateYmd(end)) return m.durationEndFormat
  if (!blank(start) && !isDateYmd(start)) return m.durationStartFormat
  if (!blank(start) && start.trim() > end.trim()) return m.endBeforeStart
  return null
}

// ---- the users of a sub-organisation ----

/** The address as it is sent: trimmed and in lower case (§3 Add-user request). */
export function normalisedEmail(raw: string): string {
  return raw.trim().toLowerCase()
}

/**
 * The add-user form's first problem: 'Email niet ingevuld', 'Email bevat spaties', then 'Gebruiker
 * is al toegevoegd' when the address is among the accounts or the addresses without one (any case).
 */
export function addUserProblem(
  raw: string,
  sub: { users: readonly { email: string }[]; userEmails: readonly { email: string }[] },
): string | null {
  if (blank(raw)) return m.emailMissing
  if (/\s/.test(raw.trim())) return m.emailSpaces
  const email = normalisedEmail(raw)
  const known = [...sub.users, ...sub.userEmails].some((user) => user.email.trim().toLowerCase() === email)
  return known ? m.alreadyAdded : null
}

// ---- the api's input ----

const orNull = (value: string) => (blank(value) ? null : value.trim())

/** What `POST organization` takes for a new main organisation; no dates unless kept on the main level. */
export function newMainInput(form: MainForm) {
  return {
    organizationName: form.organizationName.trim(),
    agbCode: form.agbCode.trim(),
    type: form.type,
    productType: orNull(form.productType),
    validDateMainLevel: form.validDateMainLevel,
    startDate: form.validDateMainLevel ? orNull(form.startDate) : null,
    validUntil: form.validDateMainLevel ? orNull(form.validUntil) : null,
  }
}

/** What `POST organization` takes for the inline edit: the row's changes, its term as it is. */
export function editedMainInput(
  main: { id: string; validDateMainLevel: boolean; startDate?: string | null; validUntil: string },
  form: Pick<MainForm, 'organizationName' | 'agbCode' | 'type' | 'productType'>,
) {
  return {
    id: main.id,
    organizationName: form.organizationName.trim(),
    agbCode: form.agbCode.trim(),
    type: form.type,
    productType: orNull(form.productType),
    validDateMainLevel: main.validDateMainLevel,
    startDate: main.validDateMainLevel ? (main.startDate ?? null) : null,
    validUntil: main.validDateMainLevel ? main.validUntil : null,
  }
}

/** What `POST suborganizationLinkingtoMain` takes; its own term only when the main keeps none. */
export function subInput(form: SubForm, termOnMain: boolean, id?: string) {
  return {
    ...(id ? { id } : {}),
    organizationName: form.organizationName.trim(),
    agbCode: form.agbCode.trim(),
    type: form.type,
    productType: orNull(form.productType),
    startDate: termOnMain ? null : orNull(form.startDate),
    validUntil: termOnMain ? null : orNull(form.validUntil),
  }
}

/** The edit form of a sub-organisation, filled with what it holds. */
export function subFormOf(sub: {
  organizationName: string
  agbCode: string
  type: string
  productType?: string | null
  startDate?: string | null
  validUntil?: string | null
}): SubForm {
  return {
    organizationName: sub.organizationName,
    agbCode: sub.agbCode,
    type: sub.type,
    productType: sub.productType ?? '',
    startDate: sub.startDate ?? '',
    validUntil: sub.validUntil ?? '',
  }
}
