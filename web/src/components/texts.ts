/** Texts of the shared components. */
export const componentTexts = {
  // The toast titles, as the specification writes them.
  toastTitles: { error: 'Fout', success: 'Gelukt', warning: 'Waarschuwing' },
  notifications: 'Meldingen',
  close: 'Sluiten',
  cancel: 'Annuleren',
} as const
