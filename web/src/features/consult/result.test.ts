import { describe, expect, it } from 'vitest'
import { appendSentence, emptyForm, formFromResult, reportText, specialistText, withEpisodeField } from './result'

const episode = { subjective: 'Hoest sinds een week.', objective: 'Longen schoon.', diagnosis: 'Bovenste luchtweginfectie.', plan: 'Paracetamol.' }

describe('the empty form', () => {
  it('has one empty episode and the flavour\'s specialist sections', () => {
    const form = emptyForm('soap', 'normal')
    expect(form.episodes).toEqual([{ subjective: '', objective: '', diagnosis: '', plan: '' }])
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
    expect(form.episodes).toEqual([episode, { subjective: 'Knie', objective: '', diagnosis: '', plan: '' }])
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
    expect(form.episodes[1]).toEqual({ subjective: '', objective: '', diagnosis: '', plan: '' })
  })

  it('appends dictated sentences with a space', () => {
    expect(appendSentence('', 'Eerste zin.')).toBe('Eerste zin.')
    expect(appendSentence('Eerste zin.', 'Tweede zin.')).toBe('Eerste zin. Tweede zin.')
    expect(appendSentence('Eerste zin.\n', '  ')).toBe('Eerste zin.\n')
  })
})
