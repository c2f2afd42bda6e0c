import { describe, expect, it } from 'vitest'
import {
  addUserProblem,
  durationProblem,
  editedMainInput,
  editMainProblem,
  emptyMainForm,
  emptySubForm,
  mainTermText,
  newMainInput,
  newMainProblem,
  normalisedEmail,
  organisationTypes,
  productLabel,
  subInput,
  subProblem,
  termText,
  typeLabel,
  type MainForm,
  type SubForm,
} from './rules'

const FORMAT = 'Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30'

describe('the labels of §9', () => {
  it('names every organisation type in Dutch, the list by its Dutch name', () => {
    expect(organisationTypes.map(typeLabel)).toEqual(['Centrum', 'Land', 'Post', 'Praktijk', 'Praktijkgroep', 'Regionaal', 'Zorggroep', 'Zorgverlener'])
    expect([...organisationTypes].sort()).toEqual(['CARE_GROUP', 'CENTRE', 'COUNTRY', 'POST', 'PRACTICE', 'PRACTICE_GROUP', 'PRACTITIONER', 'REGIONAL'])
    expect(typeLabel('PRACTICE_GROUP')).toBe('Praktijkgroep')
    expect(typeLabel('CARE_GROUP')).toBe('Zorggroep')
    // one the list does not know shows as it is
    expect(typeLabel('CLINIC')).toBe('CLINIC')
  })

  it('names the product types, and none as Leeg', () => {
    expect(productLabel('ION')).toBe('ION abonnement')
    expect(productLabel('USER')).toBe('Gebruikers abonnement')
    expect(productLabel(null)).toBe('Leeg')
    expect(productLabel('')).toBe('Leeg')
  })
})

describe('terms', () => {
  it('reads start – end, or up to the end when it starts at once', () => {
    expect(termText('2026-01-01', '2026-12-31')).toBe('1 januari 2026 – 31 december 2026')
    expect(termText(null, '2026-12-31')).toBe('tot en met 31 december 2026')
    expect(termText(null, null)).toBe('-')
  })

  it('says Per suborganisatie for a main organisation that keeps no term (valid-until 1970-01-01)', () => {
    expect(mainTermText({ validDateMainLevel: false, startDate: null, validUntil: '1970-01-01' })).toBe('Per suborganisatie')
    expect(mainTermText({ validDateMainLevel: true, startDate: '2026-02-01', validUntil: '2027-01-31' })).toBe('1 februari 2026 – 31 januari 2027')
  })
})

describe('a new main organisation, checked in the spec’s order', () => {
  const full: MainForm = {
    organizationName: 'Zorggroep Zuid',
    agbCode: '12345678',
    type: 'CARE_GROUP',
    productType: 'ION',
    validDateMainLevel: true,
    startDate: '2026-01-01',
    validUntil: '2026-12-31',
  }

  it('gives each message in turn as the fields are filled', () => {
    const steps: [Partial<MainForm>, string][] = [
      [{ organizationName: '  ' }, 'Naam niet ingevuld'],
      [{ agbCode: '' }, 'AGB code niet ingevuld'],
      [{ validUntil: '' }, 'Einddatum niet ingevuld'],
      [{ validUntil: '31-12-2026' }, FORMAT],
      [{ startDate: '2026-1-1' }, 'Startdatum geen goed format ingevuld, gebruik YYYY-MM-DD'],
      [{ startDate: '2027-01-01' }, 'Einddatum kan niet eerder zijn dan de startdatum.'],
      [{ type: '' }, 'Categorie niet ingevuld'],
    ]
    for (const [change, message] of steps) expect(newMainProblem({ ...full, ...change }), message).toBe(message)
    expect(newMainProblem(full)).toBeNull()
  })

  it('asks the first problem of an empty form first', () => {
    expect(newMainProblem(emptyMainForm)).toBe('Naam niet ingevuld')
    expect(newMainProblem({ ...emptyMainForm, organizationName: 'A', agbCode: '1' })).toBe('Categorie niet ingevuld')
  })

  it('asks for no dates when the term is kept per sub-organisation, and sends none', () => {
    const perSub = { ...full, validDateMainLevel: false, validUntil: 'nonsense', startDate: 'x' }
    expect(newMainProblem(perSub)).toBeNull()
    expect(newMainInput(perSub)).toEqual({
      organizationName: 'Zorggroep Zuid',
      agbCode: '12345678',
      type: 'CARE_GROUP',
      productType: 'ION',
      validDateMainLevel: false,
      startDate: null,
      validUntil: null,
    })
  })

  it('takes an empty start (it starts at once) and sends the trimmed values, no product as null', () => {
    const input = newMainInput({ ...full, organizationName: ' Zorggroep Zuid ', startDate: ' ', validUntil: ' 2026-12-31 ', productType: '' })
    expect(newMainProblem({ ...full, startDate: '' })).toBeNull()
    expect(input).toMatchObject({ organizationName: 'Zorggroep Zuid', startDate: null, validUntil: '2026-12-31', productType: null })
  })
})

describe('the inline edit', () => {
  it('asks for the name, then Agbcode, then Type', () => {
    const form = { organizationName: 'Zorggroep Zuid', agbCode: '1', type: 'CARE_GROUP' }
    expect(editMainProblem({ ...form, organizationName: '' })).toBe('Naam niet ingevuld')
    expect(editMainProblem({ ...form, agbCode: ' ', type: '' })).toBe('Agbcode niet ingevuld')
    expect(editMainProblem({ ...form, type: '' })).toBe('Type niet ingevuld')
    expect(editMainProblem(form)).toBeNull()
  })

  it('sends the row’s term as it is', () => {
    const form = { organizationName: 'Nieuw', agbCode: '2', type: 'POST', productType: 'USER' }
    expect(editedMainInput({ id: 'm1', validDateMainLevel: true, startDate: null, validUntil: '2027-01-31' }, form)).toEqual({
      id: 'm1',
      organizationName: 'Nieuw',
      agbCode: '2',
      type: 'POST',
      productType: 'USER',
      validDateMainLevel: true,
      startDate: null,
      validUntil: '2027-01-31',
    })
    expect(editedMainInput({ id: 'm1', validDateMainLevel: false, startDate: null, validUntil: '1970-01-01' }, form)).toMatchObject({
      validDateMainLevel: false,
      validUntil: null,
    })
  })
})

describe('a sub-organisation', () => {
  const full: SubForm = { organizationName: 'De Linde', agbCode: '0101', type: 'PRACTICE', productType: '', startDate: '', validUntil: '2026-12-31' }

  it('is a practice unless another type is chosen', () => {
    expect(emptySubForm.type).toBe('PRACTICE')
  })

  it('asks for Type, AGBCode, the name, then its own term when the main keeps none', () => {
    const steps: [Partial<SubForm>, string][] = [
      [{ type: '' }, 'Type niet ingevuld'],
      [{ agbCode: '' }, 'AGBCode niet ingevuld'],
      [{ organizationName: '' }, 'Naam niet ingevuld'],
      [{ validUntil: '' }, 'Einddatum niet ingevuld'],
      [{ validUntil: '2026-12-32' }, FORMAT],
      [{ startDate: '01-01-2026' }, 'Startdatum geen goed format ingevuld, gebruik YYYY-MM-DD'],
      [{ startDate: '2027-01-01' }, 'Einddatum kan niet eerder zijn dan de startdatum.'],
    ]
    for (const [change, message] of steps) expect(subProblem({ ...full, ...change }, false), message).toBe(message)
    expect(subProblem(full, false)).toBeNull()
  })

  it('asks for no term while the main organisation keeps it, and sends none', () => {
    expect(subProblem({ ...full, validUntil: '' }, true)).toBeNull()
    expect(subInput(full, true)).toEqual({ organizationName: 'De Linde', agbCode: '0101', type: 'PRACTICE', productType: null, startDate: null, validUntil: null })
    expect(subInput(full, false, 's1')).toMatchObject({ id: 's1', startDate: null, validUntil: '2026-12-31' })
  })
})

describe('the Looptijd modal', () => {
  it('asks for the end’s format, the start’s format (optional), then the order', () => {
    expect(durationProblem('', '')).toBe('Einddatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30')
    expect(durationProblem('2026-01-01', '31-12-2026')).toBe('Einddatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30')
    expect(durationProblem('1-1-2026', '2026-12-31')).toBe('Startdatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30')
    expect(durationProblem('2027-01-01', '2026-12-31')).toBe('Einddatum kan niet eerder zijn dan de startdatum.')
    expect(durationProblem(' ', '2026-12-31')).toBeNull()
    expect(durationProblem('2026-12-31', '2026-12-31')).toBeNull()
  })
})

describe('adding a user to a sub-organisation', () => {
  const sub = { users: [{ email: 'Anne@Praktijk.nl' }], userEmails: [{ email: 'bram@praktijk.nl' }] }

  it('asks for an address without spaces that is not there yet, in any case', () => {
    expect(addUserProblem('   ', sub)).toBe('Email niet ingevuld')
    expect(addUserProblem('anne @praktijk.nl', sub)).toBe('Email bevat spaties')
    expect(addUserProblem('anne@praktijk.nl', sub)).toBe('Gebruiker is al toegevoegd')
    expect(addUserProblem(' BRAM@praktijk.NL ', sub)).toBe('Gebruiker is al toegevoegd')
    expect(addUserProblem(' carla@praktijk.nl ', sub)).toBeNull()
  })

  it('sends the address trimmed and in lower case', () => {
    expect(normalisedEmail('  Carla@Praktijk.NL ')).toBe('carla@praktijk.nl')
  })
})
