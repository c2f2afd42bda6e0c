/**
 * The e-consult's reply to the patient, drafted in plain Dutch from the note of the patient's
 * question: the summary call gives a SOEP note only, so the reply is written around the GP's
 * assessment (E) and plan (P) in it, for the GP to check and finish.
 */
import type { JobState } from '@/features/jobs'
import { emptyForm, formFromResult, type ConsultForm, type Episode, type SummaryResult } from './result'
import { asked, callFailed, finished, idleSummary, jobChanged, jobNamed, resultShown, type SummaryStatus } from './summaryRequest'
import { consultTexts } from './texts'

/** Closing formulas a patient signs a message with, before the name. */
const SIGN_OFF = /(?:met\s+)?(?:vriendelijke\s+)?(?:groet(?:en|jes)?|mvg)\s*,?\s*\n?\s*([^\n.,!?]{2,60}?)\s*[.!]?\s*$/i

/** The name the patient signed the question with ("Met vriendelijke groet, Jan de Boer"), or null. */
export function signedName(question: string): string | null {
  const match = SIGN_OFF.exec(question.trim())
  const name = match?.[1]?.trim()
  // a name is a few words with capitals, not the rest of a sentence
  if (!name || name.split(/\s+/).length > 5 || !/^\p{Lu}/u.test(name)) return null
  return name
}

/** A field's text as a sentence run: whitespace collapsed, ending with a full stop. */
function sentence(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim()
  if (s === '') return ''
  return /[.!?]$/.test(s) ? s : `${s}.`
}

/** Whether the note holds an assessment or a plan the reply can pass on. */
export function hasAdvice(episodes: readonly Episode[]): boolean {
  return episodes.some((e) => e.diagnosis.trim() !== '' || e.plan.trim() !== '')
}

/**
 * The draft reply: a greeting (by the name the patient signed with, when there is one), thanks for
 * the message, the assessment and the advice of each episode that has them, what to do when it
 * gets worse, and the closing.
 */
export function draftReply(question: string, episodes: readonly Episode[]): string {
  const name = signedName(question)
  const parts: string[] = [name ? `Beste ${name},` : 'Beste meneer, mevrouw,', 'Dank u voor uw bericht.']
  for (const episode of episodes) {
    const assessment = sentence(episode.diagnosis)
    const plan = sentence(episode.plan)
    const lines = [assessment && `Mijn beoordeling: ${assessment}`, plan && `Mijn advies: ${plan}`].filter(Boolean)
    if (lines.length > 0) parts.push(lines.join('\n'))
  }
  parts.push('Worden de klachten erger of heeft u nog vragen? Neem dan contact op met de praktijk.')
  parts.push('Met vriendelijke groet,\nUw huisarts')
  return parts.join('\n\n')
}

/** The e-consult page's state: the question, the summary being made, the note and the reply. */
export interface EConsultState {
  question: string
  /** Samenvatten was pressed without a question. */
  emptyAsked: boolean
  summary: SummaryStatus
  /** The question the newest summary was asked for (its reply greets by the name signed with). */
  askedFor: string
  /** The note and the reply, once a summary arrived. */
  form: ConsultForm | null
  reply: string
}

export type EConsultAction =
  | { type: 'question'; text: string }
  | { type: 'empty' }
  | { type: 'asked'; now: number }
  | { type: 'job'; jobId: string }
  | { type: 'jobState'; jobId: string; state: JobState }
  | { type: 'note'; note: SummaryResult }
  | { type: 'failed'; message: string }
  | { type: 'finished' }
  | { type: 'editForm'; change: (form: ConsultForm) => ConsultForm }
  | { type: 'reply'; text: string }

export const initialEConsult: EConsultState = { question: '', emptyAsked: false, summary: idleSummary, askedFor: '', form: null, reply: '' }

export function econsultReducer(state: EConsultState, action: EConsultAction): EConsultState {
  switch (action.type) {
    case 'question':
      return { ...state, question: action.text, emptyAsked: false }
    case 'empty':
      return { ...state, emptyAsked: true }
    case 'asked':
      return { ...state, askedFor: state.question, summary: asked(state.summary, state.question.length, action.now, false) }
    case 'job':
      return { ...state, summary: jobNamed(state.summary, action.jobId) }
    case 'jobState':
      return { ...state, summary: jobChanged(state.summary, action.jobId, action.state, consultTexts.summaryFailed) }
    case 'note': {
      if (!state.summary.pending || state.summary.pending.done) return state
      const form = formFromResult(emptyForm('soap', 'normal'), action.note, 'normal')
      return { ...state, form, reply: draftReply(state.askedFor, form.episodes), summary: resultShown(state.summary) }
    }
    case 'failed':
      return { ...state, summary: callFailed(state.summary, action.message) }
    case 'finished':
      return { ...state, summary: finished(state.summary) }
    case 'editForm':
      return state.form ? { ...state, form: action.change(state.form) } : state
    case 'reply':
      return { ...state, reply: action.text }
  }
}

