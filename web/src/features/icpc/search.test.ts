import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { icpcId, searchIcpc, type IcpcCode } from './search'

// The list the api ships and the cases its own `search` is tested with: both sides must agree.
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'))
const codes = read('../../../../domain/data/icpc/icpc2-nl.json') as IcpcCode[]
const cases = read('../../../../domain/data/icpc/search-cases.json') as { query: string; expected: string[] }[]

describe('searchIcpc, against the cases the api is tested with', () => {
  it('has cases to check', () => {
    expect(cases.length).toBeGreaterThan(0)
  })

  it.each(cases)('finds $expected for "$query"', ({ query, expected }) => {
    expect(searchIcpc(codes, query).map(icpcId)).toEqual(expected)
  })
})

const code = (id: string, patientTitle: string, officialTitle = patientTitle): IcpcCode => ({
  category: id.slice(0, 1),
  code: id.slice(1),
  patientTitle,
  officialTitle,
})

const list: IcpcCode[] = [
  code('-30', 'Uitgebreid lichamelijk onderzoek'),
  code('K85', 'Verhoogde bloeddruk', 'Verhoogde bloeddruk zonder hypertensie'),
  code('K86', 'Hoge bloeddruk', 'Hypertensie zonder orgaanschade'),
  code('K87', 'Hoge bloeddruk met schade', 'Hypertensie met orgaanschade'),
  code('T90', 'Suikerziekte', 'Diabetes mellitus'),
  code('L86', 'Rugpijn met uitstraling', 'Hernia nuclei pulposi / lumbosacraal radiculair syndroom'),
]

describe('searchIcpc', () => {
  it('finds nothing for an empty or blank search', () => {
    expect(searchIcpc(list, '')).toEqual([])
    expect(searchIcpc(list, '   ')).toEqual([])
  })

  it('finds a chapter by its letter, in either case, and narrows by the digits typed', () => {
    expect(searchIcpc(list, 'K').map(icpcId)).toEqual(['K85', 'K86', 'K87'])
    expect(searchIcpc(list, 'k8').map(icpcId)).toEqual(['K85', 'K86', 'K87'])
    expect(searchIcpc(list, ' K86 ').map(icpcId)).toEqual(['K86'])
    expect(searchIcpc(list, 't9').map(icpcId)).toEqual(['T90'])
  })

  it('searches the titles when the query is not a letter with at most two digits', () => {
    // three digits, or a process code, are words
    expect(searchIcpc(list, 'K860')).toEqual([])
    expect(searchIcpc(list, '-30').map(icpcId)).toEqual(['-30'])
  })

  it('needs every word in the code or one of the titles, case and accents aside', () => {
    expect(searchIcpc(list, 'hypert').map(icpcId)).toEqual(['K85', 'K86', 'K87'])
    expect(searchIcpc(list, 'Hypertensie ORGAANSCHADE').map(icpcId)).toEqual(['K86', 'K87'])
    expect(searchIcpc(list, 'bloeddruk k86').map(icpcId)).toEqual(['K86'])
    expect(searchIcpc(list, 'suikerziekte diabetes').map(icpcId)).toEqual(['T90'])
    expect(searchIcpc(list, 'rugpijn hernía').map(icpcId)).toEqual(['L86'])
    expect(searchIcpc(list, 'bloeddruk suiker')).toEqual([])
  })

  it('gives at most ten matches, in list order', () => {
    const many = Array.from({ length: 15 }, (_, i) => code(`A${String(i).padStart(2, '0')}`, `Klacht ${i}`))
    const found = searchIcpc(many, 'klacht')
    expect(found).toHaveLength(10)
    expect(found.map(icpcId)).toEqual(many.slice(0, 10).map(icpcId))
    expect(searchIcpc(many, 'A')).toHaveLength(10)
  })
})
