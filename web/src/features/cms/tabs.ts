/** The tabs of /cms, in the order of the spec (§2.3) plus 'Achtergrondtaken'; the first is the default. */
export const cmsTabs = [
  'gebruikers',
  'abonnementen',
  'betalingen',
  'organisaties',
  'organisatie-abonnementen',
  'his',
  'statistieken',
  'auditlog',
  'achtergrondtaken',
] as const

export type CmsTab = (typeof cmsTabs)[number]
