import { refusalReason } from '@/api/client'
import { personalizeTexts as t } from './texts'

export const soapParts = ['subjective', 'objective', 'evaluation', 'plan'] as const
export type SoapPart = (typeof soapParts)[number]

/** What the add and edit modals hold. */
export type SoapForm = Record<SoapPart, string>

export const emptySoapForm: SoapForm = { subjective: '', objective: '', evaluation: '', plan: '' }

/** The form of a stored example. */
export function formFromExample(example: SoapForm): SoapForm {
  return { subjective: example.subjective, objective: example.objective, evaluation: example.evaluation, plan: example.plan }
}

/** True when none of the four parts holds any text (spaces only counts as empty). */
export function isEmptyExample(form: SoapForm): boolean {
  return soapParts.every((part) => form[part].trim() === '')
}

/** The body of the save call: with `id` it changes that example, without it adds one. */
export function soapBody(form: SoapForm, id?: string) {
  const body = formFromExample(form)
  return id ? { ...body, id } : body
}

export interface SaveFailure {
  message: string
  detail?: string
}

/**
 * The message for a failed save: the api's 'Geen tekst ingevuld' as it is, otherwise the failure of
 * adding or changing, with the reason the api gave (if any) below it.
 */
export function saveFailure(error: unknown, editing: boolean): SaveFailure {
  const reason = refusalReason(error)
  if (reason === t.emptyExample) return { message: t.emptyExample }
  const message = editing ? t.updateFailed : t.addFailed
  return reason ? { message, detail: reason } : { message }
}
