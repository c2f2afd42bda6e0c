import { describe, expect, it } from 'vitest'
import { addressWithConsult, consultOfAddress, formOfNote, isBlankForm, noteOfForm, sameNote } from './consultNote'
import { emptyEpisode, emptyForm } from './result'

describe('formOfNote', () => {
  it('gives the stored form back whole, fields of an episode it does not know included', () => {
    const form = {
      ...emptyForm('soap', 'normal'),
      episodes: [
        { subjective: 'Keelpijn', objective: 'Rode keel', diagnosis: 'Virale faryngitis', plan: 'Paracetamol', codes: [{ code: 'R74', title: 'Keelpijn', evidence: ['Ik heb keelpijn.'], accepted: true }] },
        { ...emptyEpisode, subjective: 'Lage rugpijn', plan: 'Fysiotherapie' },
      ],
    }
    const back = formOfNote(JSON.parse(JSON.stringify(noteOfForm(form))), 'soap', 'normal')
    expect(back).toEqual(form)
    expect((back?.episodes[0] as unknown as { codes: unknown }).codes).toEqual([{ code: 'R74', title: 'Keelpijn', evidence: ['Ik heb keelpijn.'], accepted: true }])
  })

  it('reads a damaged note leniently and refuses one of another template or none', () => {
    const back = formOfNote({ template: 'soap', episodes: [{ subjective: 3, plan: 'Rust' }, 'kapot'], report: null }, 'soap', 'normal')
    expect(back?.episodes).toEqual([{ ...emptyEpisode, plan: 'Rust' }])
    expect(back?.report).toBe('')
    expect(back?.specialist).toEqual(emptyForm('soap', 'normal').specialist)
    expect(formOfNote({ template: 'soap', episodes: [] }, 'soap', 'normal')?.episodes).toEqual(emptyForm('soap', 'normal').episodes)
    expect(formOfNote({ template: 'report', report: 'Verslag' }, 'soap', 'normal')).toBeNull()
    expect(formOfNote(null, 'soap', 'normal')).toBeNull()
    expect(formOfNote([1], 'soap', 'normal')).toBeNull()
  })

  it('keeps the specialist sections the note has, in its order', () => {
    const back = formOfNote({ template: 'specialist', specialist: [{ name: 'Beleid', text: 'Terugverwijzen' }, { text: 'zonder naam' }] }, 'specialist', 'normal')
    expect(back?.specialist).toEqual([{ name: 'Beleid', text: 'Terugverwijzen' }])
  })
})

describe('isBlankForm and sameNote', () => {
  it('sees text anywhere in the note, and white space as nothing', () => {
    const empty = emptyForm('specialist', 'normal')
    expect(isBlankForm(empty)).toBe(true)
    expect(isBlankForm({ ...empty, report: '  \n' })).toBe(true)
    expect(isBlankForm({ ...empty, meeting: 'Overleg' })).toBe(false)
    expect(isBlankForm({ ...empty, specialist: [{ name: 'Beleid', text: 'Terug' }] })).toBe(false)
    expect(isBlankForm({ ...empty, episodes: [{ ...emptyEpisode, diagnosis: 'Griep' }] })).toBe(false)
    expect(sameNote(empty, emptyForm('specialist', 'normal'))).toBe(true)
    expect(sameNote(empty, { ...empty, report: 'x' })).toBe(false)
  })
})

describe('the consult in the address', () => {
  it('sets and removes ?consult=, leaving the rest of the query', () => {
    expect(addressWithConsult('/audioconsult/beta/soap', '', 'c1')).toBe('/audioconsult/beta/soap?consult=c1')
    expect(addressWithConsult('/consult/v1/audio', '?compatibility=true', 'c1')).toBe('/consult/v1/audio?compatibility=true&consult=c1')
    expect(addressWithConsult('/consult/v1/audio', '?compatibility=true&consult=c1', null)).toBe('/consult/v1/audio?compatibility=true')
    expect(addressWithConsult('/audioconsult/beta/soap', '?consult=c1', null)).toBe('/audioconsult/beta/soap')
    expect(consultOfAddress('?consult=01kaz&x=1')).toBe('01kaz')
    expect(consultOfAddress('?consult=')).toBeNull()
    expect(consultOfAddress('')).toBeNull()
  })
})
