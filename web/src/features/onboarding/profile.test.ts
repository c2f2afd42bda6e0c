import { describe, expect, it } from 'vitest'
import { asksPractitionerKind, emptyForm, formFromProfile, profileBody, withUserKind, type ProfileForm } from './profile'
import { onboardingTexts, practitionerKindNames, practitionerKinds, userKindNames, userKinds } from './texts'

const filled: ProfileForm = {
  preferredName: 'Anne',
  phoneNumber: '020 123 4567',
  agbCode: '01012345',
  organizationName: 'Huisartsenpraktijk De Linde',
  userKind: 'ARTS',
  practitionerKind: 'WAARNEMEND',
}

describe('formFromProfile', () => {
  it('starts empty without a stored profile, or with one never filled in', () => {
    expect(formFromProfile(undefined)).toEqual(emptyForm)
    expect(formFromProfile(null)).toEqual(emptyForm)
    expect(
      formFromProfile({
        preferredUsername: null,
        phoneNumber: null,
        AGBCode: null,
        organizationName: null,
        userKind: null,
        practitionerKind: null,
      }),
    ).toEqual(emptyForm)
  })

  it('fills in what is stored', () => {
    expect(
      formFromProfile({
        preferredUsername: 'Anne',
        phoneNumber: '020 123 4567',
        AGBCode: '01012345',
        organizationName: 'Huisartsenpraktijk De Linde',
        userKind: 'ARTS',
        practitionerKind: 'WAARNEMEND',
      }),
    ).toEqual(filled)
  })

  it('leaves a choice it does not know unanswered, and reads one in any case', () => {
    expect(formFromProfile({ userKind: 'DOKTER', practitionerKind: 'praktijkhoudend' })).toEqual({
      ...emptyForm,
      userKind: '',
      practitionerKind: 'PRAKTIJKHOUDEND',
    })
  })
})

describe('the practitioner question', () => {
  it('is asked of an Arts only', () => {
    expect(asksPractitionerKind('ARTS')).toBe(true)
    expect(asksPractitionerKind('ZORGGROEPMANAGER')).toBe(false)
    expect(asksPractitionerKind('ANDERS')).toBe(false)
    expect(asksPractitionerKind('')).toBe(false)
  })

  it('loses its answer when the role is no longer Arts', () => {
    expect(withUserKind(filled, 'ANDERS')).toEqual({ ...filled, userKind: 'ANDERS', practitionerKind: '' })
    expect(withUserKind(filled, 'ZORGGROEPMANAGER').practitionerKind).toBe('')
    expect(withUserKind({ ...filled, userKind: '' }, 'ARTS')).toEqual(filled)
  })
})

describe('profileBody', () => {
  it('sends the whole profile', () => {
    expect(profileBody(filled)).toEqual({
      preferredUsername: 'Anne',
      phoneNumber: '020 123 4567',
      AGBCode: '01012345',
      organizationName: 'Huisartsenpraktijk De Linde',
      userKind: 'ARTS',
      practitionerKind: 'WAARNEMEND',
    })
  })

  it('trims, and sends an empty or blank answer as null so the api clears it', () => {
    expect(profileBody({ ...emptyForm, preferredName: '  Anne ', phoneNumber: '   ' })).toEqual({
      preferredUsername: 'Anne',
      phoneNumber: null,
      AGBCode: null,
      organizationName: null,
      userKind: null,
      practitionerKind: null,
    })
  })

  it('sends no practitioner kind unless the role is Arts', () => {
    expect(profileBody({ ...filled, userKind: 'ANDERS' }).practitionerKind).toBeNull()
    expect(profileBody({ ...filled, userKind: 'ZORGGROEPMANAGER' }).practitionerKind).toBeNull()
    expect(profileBody({ ...filled, userKind: '' }).practitionerKind).toBeNull()
    expect(profileBody({ ...filled, practitionerKind: '' }).practitionerKind).toBeNull()
  })
})

describe('the texts', () => {
  it('quote the specification', () => {
    expect(onboardingTexts.heading).toBe('We graag willen nog een aantal vragen stellen..')
    expect(onboardingTexts.preferredName).toBe('Met welke naam wil je aangesproken worden?')
    expect(onboardingTexts.cancel).toBe('Niet opslaan')
    expect(onboardingTexts.save).toBe('Opslaan')
    expect(onboardingTexts.saveFailed).toBe('Informatie kon niet worden opgeslagen.')
  })

  it('name the roles and practitioner kinds in Dutch', () => {
    expect(userKinds.map((kind) => userKindNames[kind])).toEqual(['Arts', 'Zorggroepmanager', 'Anders'])
    expect(practitionerKinds.map((kind) => practitionerKindNames[kind])).toEqual(['Waarnemend', 'Praktijkhoudend', 'Anders'])
  })
})
