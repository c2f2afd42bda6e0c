/**
 * The consult page's note as it is kept on the server (`PUT /api/consult/{id}/note`): the form
 * whole, so a reload can put it back. Every field of an episode is kept, also fields this page
 * does not know (an episode's ICPC codes), and a stored note is read back leniently: what is
 * missing or of the wrong kind becomes empty, never an error.
 */
import { emptyEpisode, emptyForm, type ConsultForm, type Episode, type Flavour, type SpecialistSection, type Template } from './result'

/** How long the page waits after a change before it keeps the note. */
export const NOTE_SAVE_DELAY_MS = 800
/** How long the page waits before it tries a failed save again. */
export const NOTE_RETRY_MS = 5_000

/** The note as it is sent: the form itself. */
export function noteOfForm(form: ConsultForm): Record<string, unknown> {
  return { ...form }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * One stored episode: its four texts made sure of, every other field it carries (the ICPC codes)
 * kept as it is, and what an empty episode has where it has nothing.
 */
function episodeOfNote(value: unknown): Episode | null {
  if (!isObject(value)) return null
  const episode = { ...emptyEpisode, ...value }
  return { ...episode, subjective: text(value.subjective), objective: text(value.objective), diagnosis: text(value.diagnosis), plan: text(value.plan) }
}

function sectionOfNote(value: unknown): SpecialistSection | null {
  if (!isObject(value) || typeof value.name !== 'string') return null
  return { ...value, name: value.name, text: text(value.text) }
}

/**
 * The form a stored note gives for the page of `template` (with `flavour`'s empty sections where
 * it has none), or null when there is no note or it was made with another template.
 */
export function formOfNote(note: unknown, template: Template, flavour: Flavour): ConsultForm | null {
  if (!isObject(note) || note.template !== template) return null
  const empty = emptyForm(template, flavour)
  // fields of the form this page does not name are kept as the note has them
  const rest: Record<string, unknown> = Object.fromEntries(Object.entries(note).filter(([key, value]) => key in empty && value !== null && value !== undefined))
  const episodes = Array.isArray(note.episodes) ? note.episodes.map(episodeOfNote).filter((e): e is Episode => e !== null) : []
  const specialist = Array.isArray(note.specialist)
    ? note.specialist.map(sectionOfNote).filter((s): s is SpecialistSection => s !== null)
    : []
  return {
    ...empty,
    ...(rest as Partial<ConsultForm>),
    template,
    episodes: episodes.length > 0 ? episodes : empty.episodes,
    report: text(note.report),
    dictation: text(note.dictation),
    summarizedDictation: typeof note.summarizedDictation === 'string' && note.summarizedDictation !== '' ? note.summarizedDictation : null,
    meeting: text(note.meeting),
    specialist: specialist.length > 0 ? specialist : empty.specialist,
  }
}

/** Whether the note holds no text at all (nothing worth keeping, or asking about). */
export function isBlankForm(form: ConsultForm): boolean {
  const blank = (value: string | null) => (value ?? '').trim() === ''
  return (
    form.episodes.every((e) => blank(e.subjective) && blank(e.objective) && blank(e.diagnosis) && blank(e.plan)) &&
    blank(form.report) &&
    blank(form.dictation) &&
    blank(form.summarizedDictation) &&
    blank(form.meeting) &&
    form.specialist.every((s) => blank(s.text))
  )
}

/** Whether two notes are the same (what was kept need not be sent again). */
export function sameNote(a: ConsultForm, b: ConsultForm): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

/** The page's address with `consult` set to `consultId`, or without it when null; the rest stays. */
export function addressWithConsult(pathname: string, search: string, consultId: string | null): string {
  const params = new URLSearchParams(search)
  if (consultId) params.set('consult', consultId)
  else params.delete('consult')
  const query = params.toString()
  return query ? `${pathname}?${query}` : pathname
}

/** The consult named in the page's address (`?consult=`), if any. */
export function consultOfAddress(search: string): string | null {
  const id = new URLSearchParams(search).get('consult')?.trim()
  return id ? id : null
}
