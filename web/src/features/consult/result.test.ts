import { describe, expect, it } from 'vitest'
import {
  acceptedCodesLine,
  appendSentence,
  emptyForm,
  evaluationCopyText,
  FLAVOURS,
  formFromResult,
  isTemplate,
  keepingChanges,
  reportText,
  specialistSections,
  specialistText,
  TEMPLATES,
  withCodeAnswer,
  withEpisodeField,
} from './result'

const episode = { subjective: 'Hoest sinds een week.', objective: 'Longen schoon.', diagnosis: 'Bovenste luchtweginfectie.', plan: 'Paracetamol.', codes: [] }

describe('the empty form', () => {
  it('has one empty episode and the flavour\'s specialist sections', () => {
    const form = emptyForm('soap', 'normal')
    expect(form.episodes).toEqual([{ subjective: '', objective: '', diagnosis: '', plan: '', codes: [] }])
    expect(emptyForm('specialist', 'kinderarts-orthopeed').specialist.map((s) => s.name)).toEqual([
      'Reden van verwijzing',
      'Anamnese',
      'Lichamelijk onderzoek',
      'Beeldvorming',
      'Conclusie',
      'Beleid',
    ])
  })
})

describe('formFromResult', () => {
  it('maps soap episodes S, O, E, P to subjective, objective, diagnosis, plan', () => {
    const form = formFromResult(emptyForm('soap', 'normal'), { episodes: [episode, { subjective: 'Knie' }] }, 'normal')
    expect(form.episodes).toEqual([episode, { subjective: 'Knie', objective: '', diagnosis: '', plan: '', codes: [] }])
  })

  it('joins a report\'s one episode into Verslag with headings, leaving out empty parts', () => {
    const form = formFromResult(emptyForm('report', 'normal'), { episodes: [{ ...episode, diagnosis: '' }] }, 'normal')
    expect(form.report).toBe('Subjectief:\nHoest sinds een week.\n\nObjectief:\nLongen schoon.\n\nPlan:\nParacetamol.')
    expect(reportText(undefined)).toBe('')
  })

  it('fills the dictation and its summary, keeping what was dictated when the result has none', () => {
    const dictated = { ...emptyForm('dictation', 'normal'), dictation: 'Eerste zin.' }
    expect(formFromResult(dictated, { episodes: [], summarizedDictation: 'Kort.' }, 'normal')).toMatchObject({
      dictation: 'Eerste zin.',
      summarizedDictation: 'Kort.',
    })
    expect(formFromResult(dictated, { dictation: 'Nieuwe tekst.' }, 'normal')).toMatchObject({ dictation: 'Nieuwe tekst.', summarizedDictation: null })
  })

  it('keeps the number of problems found, for the split offer, and forgets it with the next result', () => {
    const one = { episodes: [{ subjective: 'Keelpijn. Rugpijn.' }], problemsFound: 2 }
    const offered = formFromResult(emptyForm('soap', 'normal'), one, 'normal')
    expect(offered.problemsFound).toBe(2)
    expect(formFromResult(offered, { episodes: [{ subjective: 'Keelpijn.' }, { subjective: 'Rugpijn.' }] }, 'normal').problemsFound).toBeNull()
  })

  it('fills the meeting text', () => {
    expect(formFromResult(emptyForm('meeting', 'normal'), { meeting: 'Besproken: rooster.' }, 'normal').meeting).toBe('Besproken: rooster.')
  })

  it('puts specialist sections in the flavour\'s order, with other sections after them', () => {
    const form = formFromResult(
      emptyForm('specialist', 'normal'),
      { specialistSummarization: { Beleid: 'Controle.', Extra: 'X', Anamnese: 'Pijn.' } },
      'normal',
    )
    expect(form.specialist).toEqual([
      { name: 'Reden van verwijzing', text: '' },
      { name: 'Anamnese', text: 'Pijn.' },
      { name: 'Lichamelijk onderzoek', text: '' },
      { name: 'Conclusie', text: '' },
      { name: 'Beleid', text: 'Controle.' },
      { name: 'Extra', text: 'X' },
    ])
    expect(specialistText(form.specialist)).toBe('Anamnese\nPijn.\n\nBeleid\nControle.\n\nExtra\nX')
  })
})

describe('editing', () => {
  it('grows the episode list to fit an edited index', () => {
    const form = withEpisodeField(emptyForm('soap', 'normal'), 2, 'plan', 'Terugkomen.')
    expect(form.episodes).toHaveLength(3)
    expect(form.episodes[2].plan).toBe('Terugkomen.')
    expect(form.episodes[1]).toEqual({ subjective: '', objective: '', diagnosis: '', plan: '', codes: [] })
  })

  it('appends dictated sentences with a space', () => {
    expect(appendSentence('', 'Eerste zin.')).toBe('Eerste zin.')
    expect(appendSentence('Eerste zin.', 'Tweede zin.')).toBe('Eerste zin. Tweede zin.')
    expect(appendSentence('Eerste zin.\n', '  ')).toBe('Eerste zin.\n')
  })
})

describe('keepingChanges: a late summary does not overwrite what was written while waiting', () => {
  const result = { episodes: [episode, { subjective: 'Knie' }] }

  it('fills every field when nothing changed since asking', () => {
    const asked = emptyForm('soap', 'normal')
    const { form, kept } = keepingChanges(asked, asked, formFromResult(asked, result, 'normal'))
    expect(form).toEqual(formFromResult(asked, result, 'normal'))
    expect(kept).toBe(false)
  })

  it('keeps a field the user wrote while waiting, and fills the others', () => {
    const asked = emptyForm('soap', 'normal')
    const current = withEpisodeField(withEpisodeField(asked, 0, 'plan', 'Zelf geschreven plan.'), 2, 'subjective', 'Derde probleem.')
    const { form, kept } = keepingChanges(asked, current, formFromResult(current, result, 'normal'))
    expect(kept).toBe(true)
    expect(form.episodes).toEqual([
      { ...episode, plan: 'Zelf geschreven plan.' },
      { subjective: 'Knie', objective: '', diagnosis: '', plan: '', codes: [] },
      { subjective: 'Derde probleem.', objective: '', diagnosis: '', plan: '', codes: [] },
    ])
  })

  it('says nothing was kept when what was written equals the summary', () => {
    const asked = emptyForm('soap', 'normal')
    const current = withEpisodeField(asked, 0, 'plan', episode.plan)
    expect(keepingChanges(asked, current, formFromResult(current, result, 'normal')).kept).toBe(false)
  })

  it('keeps sentences dictated while waiting, and fills the summary of the dictation', () => {
    const asked = { ...emptyForm('dictation', 'normal'), dictation: 'Geachte collega.' }
    const current = { ...asked, dictation: 'Geachte collega. Hierbij verwijs ik mevrouw Jansen.' }
    const filled = formFromResult(current, { dictation: 'Geachte collega,', summarizedDictation: 'Verwijzing.' }, 'normal')
    const { form } = keepingChanges(asked, current, filled)
    expect(form.dictation).toBe('Geachte collega. Hierbij verwijs ik mevrouw Jansen.')
    expect(form.summarizedDictation).toBe('Verwijzing.')
  })

  it('keeps a specialist section written while waiting, by its name', () => {
    const asked = emptyForm('specialist', 'normal')
    const current = { ...asked, specialist: asked.specialist.map((s) => (s.name === 'Beleid' ? { ...s, text: 'Eigen beleid.' } : s)) }
    const filled = formFromResult(current, { specialistSummarization: { Anamnese: 'Pijn.', Beleid: 'Rust.' } }, 'normal')
    const { form, kept } = keepingChanges(asked, current, filled)
    expect(kept).toBe(true)
    expect(form.specialist.find((s) => s.name === 'Anamnese')?.text).toBe('Pijn.')
    expect(form.specialist.find((s) => s.name === 'Beleid')?.text).toBe('Eigen beleid.')
  })
})

describe('the names the server uses', () => {
  it('offers every template and flavour once, in order', () => {
    expect(TEMPLATES).toEqual(['soap', 'report', 'dictation', 'radiology', 'specialist', 'meeting'])
    expect(FLAVOURS).toEqual(['normal', 'poh-ggz', 'kinderarts-allergoloog', 'kinderarts-orthopeed'])
    expect(isTemplate('meeting')).toBe(true)
    expect(isTemplate('toString')).toBe(false)
  })

  it('gives each flavour its specialist sections, a copy the caller may change', () => {
    expect(specialistSections('kinderarts-orthopeed')).toContain('Beeldvorming')
    expect(specialistSections('normal')).toEqual(['Reden van verwijzing', 'Anamnese', 'Lichamelijk onderzoek', 'Conclusie', 'Beleid'])
    specialistSections('normal').push('x')
    expect(specialistSections('normal')).toHaveLength(5)
  })
})

describe('the ICPC codes of an episode', () => {
  const coded = {
    extractive: true,
    episodes: [
      {
        ...episode,
        codes: [
          { code: 'R74', title: 'Verkoudheid', evidence: ['Ik ben verkouden.'] },
          { code: 'R05', title: 'Hoesten', evidence: ['Ik hoest al een week.'], accepted: false },
        ],
      },
    ],
  }

  it('come from the summary with their evidence, none accepted, and the note says it was drafted without a model', () => {
    const form = formFromResult(emptyForm('soap', 'normal'), coded, 'normal')
    expect(form.extractive).toBe(true)
    expect(form.episodes[0].codes).toEqual([
      { code: 'R74', title: 'Verkoudheid', evidence: ['Ik ben verkouden.'], accepted: false },
      { code: 'R05', title: 'Hoesten', evidence: ['Ik hoest al een week.'], accepted: false },
    ])
    expect(formFromResult(emptyForm('soap', 'normal'), { episodes: [episode] }, 'normal').extractive).toBe(false)
  })

  it('are accepted or removed one at a time, and only accepted ones are copied with the evaluation', () => {
    const form = formFromResult(emptyForm('soap', 'normal'), coded, 'normal')
    expect(evaluationCopyText(form.episodes[0])).toBe('Bovenste luchtweginfectie.')
    const accepted = withCodeAnswer(form, 0, 'R05', 'accept')
    expect(accepted.episodes[0].codes.map((c) => c.accepted)).toEqual([false, true])
    expect(acceptedCodesLine(accepted.episodes[0])).toBe('ICPC: R05 Hoesten')
    const both = withCodeAnswer(accepted, 0, 'R74', 'accept')
    expect(evaluationCopyText(both.episodes[0])).toBe('Bovenste luchtweginfectie.\nICPC: R74 Verkoudheid, R05 Hoesten')
    const removed = withCodeAnswer(both, 0, 'R74', 'remove')
    expect(removed.episodes[0].codes.map((c) => c.code)).toEqual(['R05'])
    // an empty evaluation copies the codes alone
    expect(evaluationCopyText({ ...removed.episodes[0], diagnosis: '' })).toBe('ICPC: R05 Hoesten')
  })

  it('answered while a new summary was made stay as the clinician left them', () => {
    const asked = formFromResult(emptyForm('soap', 'normal'), coded, 'normal')
    const current = withCodeAnswer(asked, 0, 'R74', 'accept')
    const filled = formFromResult(asked, { episodes: [{ ...episode, codes: [{ code: 'R78', title: 'Bronchitis', evidence: ['x'] }] }] }, 'normal')
    const { form, kept } = keepingChanges(asked, current, filled)
    expect(form.episodes[0].codes.map((c) => [c.code, c.accepted])).toEqual([
      ['R74', true],
      ['R05', false],
    ])
    expect(kept).toBe(true)
    // untouched codes take the new summary's
    expect(keepingChanges(asked, asked, filled).form.episodes[0].codes.map((c) => c.code)).toEqual(['R78'])
  })
})
