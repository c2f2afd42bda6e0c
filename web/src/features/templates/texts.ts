import type { components } from '@/api/schema'

/** The part of a SOEP note a template entry belongs to (the api's `SoepType`). */
export type SoepType = components['schemas']['SoepType']

/** How a soepType reads on screen; the text variants read the same. */
export const soepTypeNames: Record<SoepType, string> = {
  PLAN: 'Plan',
  OBJECTIVE: 'Objectief',
  SUBJECTIVE: 'Subjectief',
  PLAN_TEXT: 'Plan',
  OBJECTIVE_TEXT: 'Objectief',
  SUBJECTIVE_TEXT: 'Subjectief',
}

export function soepTypeName(type: string): string {
  return soepTypeNames[type.toUpperCase() as SoepType] ?? type
}

/** The kinds a new entry can have, in the order the specification names them. */
export const newEntryTypes = ['PLAN', 'OBJECTIVE', 'SUBJECTIVE'] as const satisfies readonly SoepType[]

export const soepTypeHelp: Record<(typeof newEntryTypes)[number], string> = {
  PLAN: 'Beleid: wat je afspreekt, voorschrijft of verwijst.',
  OBJECTIVE: 'Bevindingen: wat je ziet, meet en onderzoekt.',
  SUBJECTIVE: 'Anamnese: wat de patiënt vertelt.',
}

/** The toasts, as the specification writes them (including 'op geslagen'). */
export const templateMessages = {
  entry: {
    saveFailed: 'Het lukt op dit moment niet om de template entry op te slaan',
    deleteFailed: 'Het lukt op dit moment niet om de template entry te verwijderen',
    saved: 'Gelukt! De template entry is op geslagen',
    deleted: 'De template entry is verwijderd',
  },
  group: {
    saveFailed: 'Het lukt op dit moment niet om de template groep op te slaan',
    deleteFailed: 'Het lukt op dit moment niet om de template groep te verwijderen',
    saved: 'Gelukt! De template groep is op geslagen',
    deleted: 'De template groep is verwijderd',
  },
} as const

export const templateTexts = {
  title: 'Templates',
  intro: 'Vaste regels voor je SOEP-verslagen, met hun ICPC-codes, en groepen van zulke regels.',
  tabsLabel: 'Soort templates',
  entriesTab: 'Template regels',
  groupsTab: 'Template groepen',

  search: 'Zoeken',
  searchEntriesPlaceholder: 'Zoek op titel, omschrijving of tekst',
  searchGroupsPlaceholder: 'Zoek op titel of omschrijving',
  ownTemplates: 'Eigen templates',

  entriesCaption: 'Template regels',
  groupsCaption: 'Template groepen',
  nameAndDescription: 'Naam en omschrijving',
  name: 'Naam',
  description: 'Omschrijving',
  codes: 'ICPC-codes',
  type: 'Type',
  owner: 'Eigenaar',
  actions: 'Acties',
  noOwner: 'Onbekend',
  untitled: 'Zonder titel',
  public: 'Openbaar',
  private: 'Privé',
  edit: 'Bewerken',
  remove: 'Verwijderen',
  preview: 'Bekijken',
  open: 'Bekijken',
  /** The title of the row an action belongs to, for screen readers. */
  forTitle: (title: string) => `, ${title}`,

  newPublicEntry: 'Nieuwe openbare regel',
  newPrivateEntry: 'Nieuwe privé regel',
  newPublicGroup: 'Nieuwe openbare groep',
  newPrivateGroup: 'Nieuwe privé groep',
  defaultGroupTitle: 'Nieuwe groep',

  loading: 'Laden…',
  loadFailed: 'De templates konden niet worden geladen.',
  retry: 'Opnieuw proberen',
  noEntries: 'Geen template regels gevonden.',
  noGroups: 'Geen template groepen gevonden.',

  previous: 'Vorige',
  next: 'Volgende',
  pagination: 'Paginering',

  previewTitle: 'Template inhoud',
  text: 'Tekst',
  noCodes: 'Geen ICPC-codes',
  noText: 'Geen tekst',
  close: 'Sluiten',

  confirmDeleteEntryTitle: 'Template entry verwijderen?',
  confirmDeleteGroupTitle: 'Template groep verwijderen?',
  confirmDeleteEntry: (title: string) =>
    `Weet je zeker dat je „${title}” wilt verwijderen? Hij verdwijnt ook uit de groepen waarin hij staat. Dit kan niet ongedaan worden gemaakt.`,
  confirmDeleteGroup: (title: string) =>
    `Weet je zeker dat je „${title}” wilt verwijderen? De regels in de groep blijven bestaan. Dit kan niet ongedaan worden gemaakt.`,
} as const

/** Under a list: 'Resultaat x tot y van z regels', as the specification writes it. */
export const paginationTexts = {
  none: 'Geen resultaten',
  emptyPage: (count: number) => `Geen resultaten op deze pagina (${count} in totaal)`,
  range: (from: number, to: number, count: number) => `Resultaat ${from} tot ${to} van ${count} ${count === 1 ? 'regel' : 'regels'}`,
} as const

export const newEntryTexts = {
  title: (shared: boolean) => (shared ? 'Nieuwe openbare template regel' : 'Nieuwe privé template regel'),
  intro: (shared: boolean) =>
    shared
      ? 'Een openbare regel kan iedereen gebruiken. Kies bij welk deel van het SOEP-verslag hij hoort.'
      : 'Een privé regel zie alleen jij. Kies bij welk deel van het SOEP-verslag hij hoort.',
  legend: 'Type',
  create: 'Aanmaken',
  creating: 'Aanmaken…',
  cancel: 'Annuleren',
} as const

export const editTexts = {
  entryHeading: 'Template regel bewerken',
  entryReadOnlyHeading: 'Template regel',
  groupHeading: 'Template groep bewerken',
  groupReadOnlyHeading: 'Template groep',
  readOnly: 'Je kunt deze template bekijken, maar niet wijzigen.',
  titleLabel: 'Titel',
  textLabel: 'Tekst',
  descriptionLabel: 'Omschrijving',
  codesLabel: 'ICPC-codes',
  noCodes: 'Nog geen ICPC-codes.',
  addCode: 'ICPC-code toevoegen',
  codePlaceholder: 'Zoek op code of omschrijving, bijvoorbeeld K86 of hoge bloeddruk',
  codesLoading: 'De ICPC-lijst wordt geladen…',
  codesFailed: 'De ICPC-lijst kon niet worden geladen.',
  noCodeMatches: 'Geen ICPC-codes gevonden.',
  removeCode: (code: string) => `${code} verwijderen`,
  alreadyAdded: 'al toegevoegd',
  entriesLabel: 'Regels in deze groep',
  noEntries: 'Deze groep heeft nog geen regels.',
  addEntry: 'Template regel toevoegen',
  entryPlaceholder: 'Zoek op titel, omschrijving of tekst',
  searchingEntries: 'Zoeken…',
  noEntryMatches: 'Geen template regels gevonden.',
  inGroup: 'al in de groep',
  removeFromGroup: 'Uit groep halen',
  save: 'Opslaan',
  remove: 'Verwijderen',
  back: 'Terug',
  autosave: 'Wijzigingen worden automatisch opgeslagen.',
  saving: 'Opslaan…',
  allSaved: 'Alle wijzigingen zijn opgeslagen.',
  notSaved: 'Niet opgeslagen',
  someUnsaved: 'Niet alle wijzigingen zijn opgeslagen. Verlaat het veld of kies Opslaan om het opnieuw te proberen.',
  visibility: 'Zichtbaarheid',
  owner: 'Eigenaar',
} as const

export const problemTexts = {
  notFound: 'Template niet gevonden',
  notFoundHelp: (id: string) => `Er is geen template met id ${id}. Misschien is hij verwijderd.`,
  forbidden: 'Geen toegang tot template',
  forbiddenHelp: 'Deze template is van iemand anders en niet met je gedeeld.',
  back: 'Terug',
} as const
