import { describe, expect, it } from 'vitest'
import { newEntryTypes, soepTypeName } from './texts'

describe('soepTypeName', () => {
  it('names the three kinds in Dutch', () => {
    expect(soepTypeName('PLAN')).toBe('Plan')
    expect(soepTypeName('OBJECTIVE')).toBe('Objectief')
    expect(soepTypeName('SUBJECTIVE')).toBe('Subjectief')
  })

  it('names the text variants the same', () => {
    expect(soepTypeName('PLAN_TEXT')).toBe('Plan')
    expect(soepTypeName('OBJECTIVE_TEXT')).toBe('Objectief')
    expect(soepTypeName('SUBJECTIVE_TEXT')).toBe('Subjectief')
  })

  it('ignores case and shows an unknown kind as it is', () => {
    expect(soepTypeName('plan')).toBe('Plan')
    expect(soepTypeName('EVALUATION')).toBe('EVALUATION')
  })

  it('offers Plan, Objectief and Subjectief for a new entry', () => {
    expect(newEntryTypes.map(soepTypeName)).toEqual(['Plan', 'Objectief', 'Subjectief'])
  })
})
