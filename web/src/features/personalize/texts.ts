/** Texts of /personalize. The messages are quoted from the specification. */
export const personalizeTexts = {
  heading: 'Personaliseer',
  intro: 'Voorbeelden van SOEP-verslagen zoals jij ze schrijft. Ze helpen om de samenvattingen op jouw manier te maken.',
  tabSoap: 'SOEP',

  subjective: 'Subjectief',
  objective: 'Objectief',
  evaluation: 'Evaluatie',
  plan: 'Plan',
  actions: 'Acties',

  newExample: 'Nieuw SOEP voorbeeld',
  edit: 'Bewerken',
  delete: 'Verwijderen',
  editLabel: (row: number) => `Voorbeeld ${row} bewerken`,
  deleteLabel: (row: number) => `Voorbeeld ${row} verwijderen`,

  loading: 'Je voorbeelden worden geladen…',
  loadFailed: 'Je voorbeelden konden niet worden geladen.',
  retry: 'Opnieuw proberen',
  emptyTitle: 'Nog geen SOEP voorbeelden',
  emptyText: 'Voeg een voorbeeld toe van een verslag zoals jij het zou schrijven. Je kunt het later altijd aanpassen of verwijderen.',

  addTitle: 'Nieuw SOEP voorbeeld',
  editTitle: 'SOEP voorbeeld bewerken',
  save: 'Opslaan',
  saving: 'Opslaan…',
  cancel: 'Annuleren',

  emptyExample: 'Geen tekst ingevuld',
  addFailed: 'SOEP kon niet worden toegevoegd',
  updateFailed: 'SOEP kon niet worden aangepast',

  confirmTitle: 'SOEP voorbeeld verwijderen',
  confirmMessage: 'Weet je zeker dat je dit voorbeeld wilt verwijderen? Dit kan niet ongedaan worden gemaakt.',
  confirmButton: 'Verwijderen',
  deleted: 'Het SOEP voorbeeld is verwijderd',
  deleteFailed: 'Het SOEP voorbeeld kon niet worden verwijderd',
} as const

/** How long a message in a modal shows (the specification: 8000 ms in modals). */
export const MODAL_MESSAGE_MS = 8_000
