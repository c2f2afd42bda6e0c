/** The editable result of a consult per template, and how a summary fills it. */
import type { components } from '@/api/schema'

export type Template = components['schemas']['Template']
export type Flavour = components['schemas']['Flavour']

/** Every template, in the order the page offers them (each of the document's once). */
const TEMPLATE_ORDER: Record<Template, number> = { soap: 0, report: 1, dictation: 2, radiology: 3, specialist: 4, meeting: 5 }
export const TEMPLATES = Object.keys(TEMPLATE_ORDER) as readonly Template[]
const FLAVOUR_ORDER: Record<Flavour, number> = { normal: 0, 'poh-ggz': 1, 'kinderarts-allergoloog': 2, 'kinderarts-orthopeed': 3 }
export const FLAVOURS = Object.keys(FLAVOUR_ORDER) as readonly Flavour[]

export function isTemplate(value: string): value is Template {
  return Object.hasOwn(TEMPLATE_ORDER, value)
}

export function isFlavour(value: string): value is Flavour {
  return Object.hasOwn(FLAVOUR_ORDER, value)
}

/** An ICPC code suggested for an episode, with the transcript sentences behind it. */
export type EpisodeCode = Required<components['schemas']['EpisodeCode']>

/** One problem of a SOEP note; `diagnosis` is the E (evaluatie). */
export type Episode = Omit<Required<components['schemas']['Episode']>, 'codes'> & { codes: EpisodeCode[] }

/** The four text fields of an episode. */
export type EpisodeField = Exclude<keyof Episode, 'codes'>
export const EPISODE_FIELDS: readonly EpisodeField[] = ['subjective', 'objective', 'diagnosis', 'plan']

/** The summary's note as the server sends it. */
export type SummaryResult = components['schemas']['ConsultResult']

/** A section name of a specialist letter, as the server names them. */
export type SpecialistSectionName = components['schemas']['SpecialistSection']

/** A section of the specialist letter on screen: one of the flavour's, or another the note named. */
export interface SpecialistSection {
  name: string
  text: string
}

/** What the page shows and the clinician edits. */
export interface ConsultForm {
  template: Template
  episodes: Episode[]
  /** report: one text. */
  report: string
  /** dictation and radiology: the dictated text. */
  dictation: string
  /** dictation and radiology: the summary of the dictation, when there is one. */
  summarizedDictation: string | null
  meeting: string
  specialist: SpecialistSection[]
  /** The note was drafted without a language model, from the transcript's own sentences. */
  extractive: boolean
  /** A one-episode SOEP note whose consult holds this many problems: the page offers the split. */
  problemsFound: number | null
}

export const emptyEpisode: Episode = { subjective: '', objective: '', diagnosis: '', plan: '', codes: [] }

/** The named sections of a specialist letter per flavour, in the order they are written (the server's
 * `specialist_sections`; every name is one of the document's `SpecialistSection`). */
export const SPECIALIST_SECTIONS: Record<Flavour, readonly SpecialistSectionName[]> = {
  normal: ['Reden van verwijzing', 'Anamnese', 'Lichamelijk onderzoek', 'Conclusie', 'Beleid'],
  'poh-ggz': ['Reden van verwijzing', 'Anamnese', 'Lichamelijk onderzoek', 'Conclusie', 'Beleid'],
  'kinderarts-allergoloog': [
    'Reden van verwijzing',
    'Anamnese',
    'Allergologische anamnese',
    'Lichamelijk onderzoek',
    'Aanvullend onderzoek',
    'Conclusie',
    'Beleid',
  ],
  'kinderarts-orthopeed': ['Reden van verwijzing', 'Anamnese', 'Lichamelijk onderzoek', 'Beeldvorming', 'Conclusie', 'Beleid'],
}

/** The named sections of a specialist letter per flavour, in the order they are written. */
export function specialistSections(flavour: Flavour): string[] {
  return [...SPECIALIST_SECTIONS[flavour]]
}

/** The empty form of a template: one empty episode, empty texts, the flavour's empty sections. */
export function emptyForm(template: Template, flavour: Flavour): ConsultForm {
  return {
    template,
    episodes: [{ ...emptyEpisode }],
    report: '',
    dictation: '',
    summarizedDictation: null,
    meeting: '',
    specialist: specialistSections(flavour).map((name) => ({ name, text: '' })),
    extractive: false,
    problemsFound: null,
  }
}

const REPORT_HEADINGS: [EpisodeField, string][] = [
  ['subjective', 'Subjectief'],
  ['objective', 'Objectief'],
  ['diagnosis', 'Evaluatie'],
  ['plan', 'Plan'],
]

/** A report's one episode as one text: each part that has text under its heading. */
export function reportText(episode: Partial<Record<EpisodeField, string>> | undefined): string {
  if (!episode) return ''
  return REPORT_HEADINGS.filter(([field]) => (episode[field] ?? '').trim() !== '')
    .map(([field, heading]) => `${heading}:\n${(episode[field] ?? '').trim()}`)
    .join('\n\n')
}

function episodeOf(e: components['schemas']['Episode']): Episode {
  return {
    subjective: e.subjective ?? '',
    objective: e.objective ?? '',
    diagnosis: e.diagnosis ?? '',
    plan: e.plan ?? '',
    codes: (e.codes ?? []).map((c) => ({ code: c.code, title: c.title, evidence: c.evidence ?? [], accepted: c.accepted ?? false })),
  }
}

/**
 * The form filled from a summary for `template`. The dictation keeps what was dictated when the
 * result has none; the specialist sections follow the flavour's order, then any others the
 * result names.
 */
export function formFromResult(form: ConsultForm, result: SummaryResult, flavour: Flavour): ConsultForm {
  const next: ConsultForm = { ...form, extractive: result.extractive ?? false, problemsFound: result.problemsFound ?? null }
  switch (form.template) {
    case 'soap': {
      const episodes = (result.episodes ?? []).map(episodeOf)
      next.episodes = episodes.length > 0 ? episodes : [{ ...emptyEpisode }]
      break
    }
    case 'report':
      next.report = reportText(result.episodes?.[0])
      break
    case 'dictation':
    case 'radiology':
      if (result.dictation != null && result.dictation !== '') next.dictation = result.dictation
      next.summarizedDictation = result.summarizedDictation ? result.summarizedDictation : null
      break
    case 'meeting':
      next.meeting = result.meeting ?? ''
      break
    case 'specialist': {
      const given = result.specialistSummarization ?? {}
      const names = specialistSections(flavour)
      const others = Object.keys(given).filter((name) => !names.includes(name))
      next.specialist = [...names, ...others].map((name) => ({ name, text: given[name] ?? '' }))
      break
    }
  }
  return next
}

/** Changes one field of episode `index`; the list grows to fit the index. */
export function withEpisodeField(form: ConsultForm, index: number, field: EpisodeField, value: string): ConsultForm {
  const episodes = form.episodes.slice()
  while (episodes.length <= index) episodes.push({ ...emptyEpisode })
  episodes[index] = { ...episodes[index], [field]: value }
  return { ...form, episodes }
}

/** Episode `index` with the clinician's answer to its suggested code `code`: accepted, or removed. */
export function withCodeAnswer(form: ConsultForm, index: number, code: string, answer: 'accept' | 'remove'): ConsultForm {
  const episodes = form.episodes.map((episode, i) => {
    if (i !== index) return episode
    const codes =
      answer === 'remove'
        ? episode.codes.filter((c) => c.code !== code)
        : episode.codes.map((c) => (c.code === code ? { ...c, accepted: true } : c))
    return { ...episode, codes }
  })
  return { ...form, episodes }
}

/** The accepted codes of an episode as one line, e.g. `ICPC: R74 Verkoudheid, R21 Keelpijn`; empty without any. */
export function acceptedCodesLine(episode: Episode): string {
  const accepted = episode.codes.filter((c) => c.accepted)
  return accepted.length === 0 ? '' : `ICPC: ${accepted.map((c) => `${c.code} ${c.title}`).join(', ')}`
}

/** What 'Kopieren' of the evaluation copies: its text, then the accepted ICPC codes. */
export function evaluationCopyText(episode: Episode): string {
  return [episode.diagnosis.trim(), acceptedCodesLine(episode)].filter((part) => part !== '').join('\n')
}

/** Appends a finished sentence to the dictation, separated by a space. */
export function appendSentence(text: string, sentence: string): string {
  const s = sentence.trim()
  if (!s) return text
  return text.trim() === '' ? s : `${text.replace(/\s+$/, '')} ${s}`
}

/** The whole specialist letter: each section's name and text, blank lines between. */
export function specialistText(sections: readonly SpecialistSection[]): string {
  return sections
    .filter((s) => s.text.trim() !== '')
    .map((s) => `${s.name}\n${s.text.trim()}`)
    .join('\n\n')
}

/**
 * `filled` (the summary over the form on screen) keeping what changed since the summary was asked
 * for: a field whose text on screen differs from its text in `askedWith` (the form when the page
 * asked) was written meanwhile (by the user while waiting, or a dictated sentence) and stays; every
 * other field takes the summary's. `kept` says whether anything of the summary was left out so.
 */
export function keepingChanges(askedWith: ConsultForm, current: ConsultForm, filled: ConsultForm): { form: ConsultForm; kept: boolean } {
  let kept = false
  const pick = <T extends string | null>(now: T, then: T, summary: T): T => {
    if (now === then) return summary
    if (now !== summary) kept = true
    return now
  }
  const episodes: Episode[] = []
  const count = Math.max(filled.episodes.length, current.episodes.length)
  for (let i = 0; i < count; i++) {
    const now = current.episodes[i] ?? emptyEpisode
    const then = askedWith.episodes[i] ?? emptyEpisode
    const summary = filled.episodes[i] ?? emptyEpisode
    const codesChanged = JSON.stringify(now.codes) !== JSON.stringify(then.codes)
    const changed = codesChanged || EPISODE_FIELDS.some((f) => now[f] !== then[f])
    // an episode the summary does not have stays only when it was written meanwhile
    if (i >= filled.episodes.length && !changed) continue
    if (codesChanged && JSON.stringify(now.codes) !== JSON.stringify(summary.codes)) kept = true
    episodes.push({
      ...episodeOf(Object.fromEntries(EPISODE_FIELDS.map((f) => [f, pick(now[f], then[f], summary[f])]))),
      // the clinician's answers to the codes on screen win over a new suggestion, as the texts do
      codes: codesChanged ? now.codes : summary.codes,
    })
  }
  const textOf = (sections: readonly SpecialistSection[]) => new Map(sections.map((s) => [s.name, s.text]))
  const nowSections = textOf(current.specialist)
  const thenSections = textOf(askedWith.specialist)
  const specialist = filled.specialist.map((s) => ({ name: s.name, text: pick(nowSections.get(s.name) ?? '', thenSections.get(s.name) ?? '', s.text) }))
  for (const s of current.specialist) {
    if (!specialist.some((f) => f.name === s.name) && s.text !== (thenSections.get(s.name) ?? '')) {
      kept = true
      specialist.push(s)
    }
  }
  const form: ConsultForm = {
    template: filled.template,
    episodes: episodes.length > 0 ? episodes : [{ ...emptyEpisode }],
    report: pick(current.report, askedWith.report, filled.report),
    dictation: pick(current.dictation, askedWith.dictation, filled.dictation),
    summarizedDictation: pick(current.summarizedDictation, askedWith.summarizedDictation, filled.summarizedDictation),
    meeting: pick(current.meeting, askedWith.meeting, filled.meeting),
    specialist,
    extractive: filled.extractive,
    problemsFound: filled.problemsFound,
  }
  return { form, kept }
}
