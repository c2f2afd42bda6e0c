/** The roles the questionnaire offers, in the order the specification names them. */
export const userKinds = ['ARTS', 'ZORGGROEPMANAGER', 'ANDERS'] as const
export type UserKind = (typeof userKinds)[number]

/** Asked only of an Arts. */
export const practitionerKinds = ['WAARNEMEND', 'PRAKTIJKHOUDEND', 'ANDERS'] as const
export type PractitionerKind = (typeof practitionerKinds)[number]

export const userKindNames: Record<UserKind, string> = {
  ARTS: 'Arts',
  ZORGGROEPMANAGER: 'Zorggroepmanager',
  ANDERS: 'Anders',
}

export const practitionerKindNames: Record<PractitionerKind, string> = {
  WAARNEMEND: 'Waarnemend',
  PRAKTIJKHOUDEND: 'Praktijkhoudend',
  ANDERS: 'Anders',
}

/** The public register where a practice looks up its AGB code. */
export const AGB_REGISTER_URL = 'https://www.vektis.nl/agb-register'

export const onboardingTexts = {
  // The heading exactly as the specification writes it (word order and the two dots included).
  heading: 'We graag willen nog een aantal vragen stellen..',
  intro: 'Zo weten we hoe we je aanspreken en in welke praktijk je werkt. Alle vragen zijn optioneel.',

  loading: 'Je gegevens worden geladen…',
  loadFailed: 'Je huidige gegevens konden niet worden geladen.',
  loadFailedHelp: 'Je kunt de vragen toch invullen. Bij opslaan vervangen de antwoorden hieronder wat er nu bewaard is.',

  preferredName: 'Met welke naam wil je aangesproken worden?',
  preferredNameHelp: 'Bijvoorbeeld je voornaam, of dokter De Vries.',
  phoneNumber: 'Telefoonnummer',
  phoneNumberHelp: 'Bijvoorbeeld 020 123 4567.',
  agbCode: 'AGB-code van de praktijk',
  agbCodeHelp: 'Een AGB-code bestaat uit 8 cijfers. Je vindt de code van je praktijk in het',
  agbRegister: 'AGB-register van Vektis',
  newTab: '(opent in een nieuw tabblad)',
  organizationName: 'Naam van de praktijk of organisatie',
  userKind: 'Wat is je rol?',
  practitionerKind: 'Ben je waarnemend of praktijkhoudend?',

  cancel: 'Niet opslaan',
  save: 'Opslaan',
  saving: 'Opslaan…',
  // As the specification writes it.
  saveFailed: 'Informatie kon niet worden opgeslagen.',
} as const
