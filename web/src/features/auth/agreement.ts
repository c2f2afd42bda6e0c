/** The token claim that says the user accepted the gebruikersovereenkomst. */
export const AGREEMENT_CLAIM = 'accepted-agreement'

/**
 * Whether the profile claims carry an accepted agreement. Identity providers write the claim as a
 * boolean, a string or a number (for instance a date or a version); `false`, `"false"` and empty
 * values mean not accepted.
 */
export function hasAcceptedAgreement(claims: Record<string, unknown> | null | undefined): boolean {
  const value = claims?.[AGREEMENT_CLAIM]
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value)
  if (typeof value === 'string') {
    const text = value.trim()
    return text !== '' && text.toLowerCase() !== 'false'
  }
  return false
}
