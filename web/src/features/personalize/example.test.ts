import { describe, expect, it } from 'vitest'
import { ApiError } from '@/api/client'
import { emptySoapForm, formFromExample, isEmptyExample, saveFailure, soapBody } from './example'

const form = { subjective: 'Hoest', objective: 'Longen schoon', evaluation: 'Virale infectie', plan: 'Afwachten' }

describe('isEmptyExample', () => {
  it('is empty when all four parts are empty or spaces only', () => {
    expect(isEmptyExample(emptySoapForm)).toBe(true)
    expect(isEmptyExample({ subjective: '  ', objective: '\n', evaluation: '', plan: '\t' })).toBe(true)
  })

  it('is not empty when one part has text', () => {
    expect(isEmptyExample({ ...emptySoapForm, plan: 'Terugkomen' })).toBe(false)
  })
})

describe('soapBody', () => {
  it('adds without an id and changes with one', () => {
    expect(soapBody(form)).toEqual(form)
    expect(soapBody(form, 'abc')).toEqual({ ...form, id: 'abc' })
  })

  it('keeps only the four parts of a stored example', () => {
    const stored = { ...form, id: 'x', source: 'manual', createdAt: '', updatedAt: '' }
    expect(formFromExample(stored)).toEqual(form)
  })
})

describe('saveFailure', () => {
  it("shows the api's 'Geen tekst ingevuld' as it is", () => {
    expect(saveFailure(new ApiError(400, { message: 'Geen tekst ingevuld' }), false)).toEqual({ message: 'Geen tekst ingevuld' })
  })

  it('names adding or changing, with the reason when the api gave one', () => {
    expect(saveFailure(new ApiError(500, null), false)).toEqual({ message: 'SOEP kon niet worden toegevoegd' })
    expect(saveFailure(new ApiError(404, null), true)).toEqual({ message: 'SOEP kon niet worden aangepast' })
    expect(saveFailure(new ApiError(400, { message: 'Te lang' }), true)).toEqual({
      message: 'SOEP kon niet worden aangepast',
      detail: 'Te lang',
    })
    expect(saveFailure(new TypeError('Failed to fetch'), false)).toEqual({ message: 'SOEP kon niet worden toegevoegd' })
  })
})
