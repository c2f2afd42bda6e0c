import type { components } from '@/api/schema'
import { normalize, words } from '@/lib/text'

/** An ICPC code of the list in force, as `GET /codes.json` gives it. */
export type IcpcCode = components['schemas']['IcpcCode']

/** Most matches a search shows. */
export const MAX_ICPC_RESULTS = 10

/** Category plus code, as templates store it: `K86`. */
export function icpcId(code: Pick<IcpcCode, 'category' | 'code'>): string {
  return `${code.category}${code.code}`
}

/** A chapter letter followed by nothing or by at most two digits: `K`, `k8`, `K86`. */
const CODE_PREFIX = /^[A-Za-z][0-9]{0,2}$/

const trim = (s: string) => s.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '')

/**
 * Search as the api does it (`domain/src/icpc.rs`, `search`):
 * - a category letter followed by nothing or by digits (`K`, `k8`, `K86`) finds the codes of that
 *   chapter whose number starts with the digits;
 * - otherwise every typed word must occur in the code (`K86`), the patient title or the official
 *   title, case and accents aside.
 *
 * At most ten matches, in list order.
 */
export function searchIcpc(codes: readonly IcpcCode[], query: string): IcpcCode[] {
  const typed = trim(query)
  if (typed === '') return []
  const found: IcpcCode[] = []
  if (CODE_PREFIX.test(typed)) {
    const category = typed[0].toUpperCase()
    const digits = typed.slice(1)
    for (const code of codes) {
      if (code.category === category && code.code.startsWith(digits)) found.push(code)
      if (found.length === MAX_ICPC_RESULTS) break
    }
    return found
  }
  const wanted = words(typed)
  for (const code of codes) {
    const haystack = normalize(`${icpcId(code)} ${code.patientTitle} ${code.officialTitle}`)
    if (wanted.every((word) => haystack.includes(word))) found.push(code)
    if (found.length === MAX_ICPC_RESULTS) break
  }
  return found
}
