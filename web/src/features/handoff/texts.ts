/** Texts of the public page /consult/{consultId} that hands a note to the record system. */
export const handOffTexts = {
  // As the specification writes them.
  opening: 'Consult wordt geopend...',
  expired: (recordSystem: string) => `Dit consult is verlopen. Start opnieuw vanuit ${recordSystem}`,
  movedOn: (recordSystem: string) => `De koppeling met ${recordSystem} loopt voortaan via de nieuwe omgeving.`,
  failed: 'Het consult kon niet worden geladen. Controleer je internetverbinding en probeer het opnieuw.',
  retry: 'Opnieuw proberen',
} as const

/** The record system's name when the settings do not name it. */
export const DEFAULT_RECORD_SYSTEM_NAME = 'Bricks'
