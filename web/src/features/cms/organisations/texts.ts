/**
 * The texts of the CMS tabs 'Organisaties' and 'Organisatie abonnementen' (spec subscriptions-cms
 * §2.3, §5, §8, §9; the Dutch of the spec verbatim). The texts every tab shares are in `../texts`.
 */
export const organisationTexts = {
  /** The organisation types (§9) in Dutch. */
  types: {
    CENTRE: 'Centrum',
    COUNTRY: 'Land',
    POST: 'Post',
    PRACTICE: 'Praktijk',
    PRACTICE_GROUP: 'Praktijkgroep',
    PRACTITIONER: 'Zorgverlener',
    REGIONAL: 'Regionaal',
    CARE_GROUP: 'Zorggroep',
  },
  /** The product types (§9); no product type reads 'Leeg'. */
  products: {
    ION: 'ION abonnement',
    USER: 'Gebruikers abonnement',
    none: 'Leeg',
  },
  chooseType: 'Kies een type',

  /** The checks of the forms, in the spec's order (§5). */
  messages: {
    nameMissing: 'Naam niet ingevuld',
    agbMissing: 'AGB code niet ingevuld',
    endMissing: 'Einddatum niet ingevuld',
    startFormat: 'Startdatum geen goed format ingevuld, gebruik YYYY-MM-DD',
    endBeforeStart: 'Einddatum kan niet eerder zijn dan de startdatum.',
    categoryMissing: 'Categorie niet ingevuld',
    inlineAgbMissing: 'Agbcode niet ingevuld',
    typeMissing: 'Type niet ingevuld',
    subAgbMissing: 'AGBCode niet ingevuld',
    durationEndFormat: 'Einddatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30',
    durationStartFormat: 'Startdatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30',
    emailMissing: 'Email niet ingevuld',
    emailSpaces: 'Email bevat spaties',
    alreadyAdded: 'Gebruiker is al toegevoegd',
  },

  // Organisaties
  main: {
    heading: 'Hoofdorganisaties',
    intro:
      'Hoofdorganisaties met hun suborganisaties en gebruikers. De looptijd staat op de hoofdorganisatie of per suborganisatie; een lege startdatum betekent dat het abonnement direct ingaat.',
    filterLabel: 'Toon',
    filters: { ALL: 'Alle', ACTIVE: 'Actieve', INACTIVE: 'Inactieve' },
    searchPlaceholder: 'Zoek op naam of AGB-code',
    add: 'Nieuwe hoofdorganisatie',
    columns: {
      name: 'Naam',
      agbCode: 'AGB-code',
      type: 'Type',
      product: 'Product',
      term: 'Looptijd',
      active: 'Actief',
      actions: 'Acties',
    },
    perSub: 'Per suborganisatie',
    subsButton: (n: number) => `Suborganisaties (${n})`,
    subsFor: (name: string) => `Suborganisaties van ${name}`,
    termButton: 'Looptijd wijzigen',
    termFor: (name: string) => `Looptijd van ${name} wijzigen`,
    edit: 'Bewerk',
    editFor: (name: string) => `${name} bewerken`,
    save: 'Opslaan',
    cancel: 'Annuleer',
    delete: 'Verwijder',
    deleteFor: (name: string) => `${name} verwijderen`,
    addRow: 'Nieuwe hoofdorganisatie',
    addSubmit: 'Toevoegen',
    mainLevel: 'Looptijd op hoofdniveau',
    fields: {
      name: 'Naam',
      agbCode: 'AGB-code',
      type: 'Type',
      product: 'Product',
      start: 'Startdatum (yyyy-mm-dd)',
      end: 'Einddatum (yyyy-mm-dd)',
    },
    added: (name: string) => `${name} is toegevoegd.`,
    saved: (name: string) => `${name} is opgeslagen.`,
    saveFailed: 'De hoofdorganisatie kon niet worden opgeslagen.',
    deleteTitle: 'Hoofdorganisatie verwijderen?',
    deleteMessage: (name: string) =>
      `${name} wordt verwijderd, met de suborganisaties, de gekoppelde gebruikers en hun organisatie abonnementen.`,
    deleteConfirm: 'Verwijderen',
    deleted: (name: string) => `${name} is verwijderd.`,
    deleteFailed: 'De hoofdorganisatie kon niet worden verwijderd.',
  },

  // the Suborganisaties modal
  sub: {
    termOnMain: 'De looptijd staat op de hoofdorganisatie en geldt voor alle suborganisaties.',
    termPerSub: 'De looptijd staat per suborganisatie.',
    none: 'Deze hoofdorganisatie heeft nog geen suborganisaties.',
    mainTerm: 'Looptijd van de hoofdorganisatie',
    agb: (code: string) => `AGB-code ${code}`,
    edit: 'Bewerk',
    editFor: (name: string) => `${name} bewerken`,
    save: 'Opslaan',
    cancel: 'Annuleer',
    term: 'Looptijd',
    termFor: (name: string) => `Looptijd van ${name} wijzigen`,
    delete: 'Verwijder',
    deleteFor: (name: string) => `${name} verwijderen`,
    deleteTitle: 'Suborganisatie verwijderen?',
    deleteMessage: (name: string) => `${name} wordt verwijderd, met de gekoppelde gebruikers en hun organisatie abonnementen.`,
    deleteConfirm: 'Verwijderen',
    deleted: (name: string) => `${name} is verwijderd.`,
    deleteFailed: 'De suborganisatie kon niet worden verwijderd.',
    addTitle: 'Suborganisatie toevoegen',
    addSubmit: 'Toevoegen',
    added: (name: string) => `${name} is toegevoegd.`,
    saved: (name: string) => `${name} is opgeslagen.`,
    saveFailed: 'De suborganisatie kon niet worden opgeslagen.',
    his: 'HIS',
    hisFor: (name: string) => `HIS van ${name}`,
    hisNone: 'Geen',
    hisSaved: (name: string, his: string) => `De HIS van ${name} is nu ${his}.`,
    hisFailed: 'De HIS kon niet worden opgeslagen.',
    fields: {
      name: 'Naam',
      agbCode: 'AGB-code',
      type: 'Type',
      product: 'Product',
      start: 'Startdatum (yyyy-mm-dd)',
      end: 'Einddatum (yyyy-mm-dd)',
    },
  },

  // the users of a sub-organisation
  users: {
    title: (n: number) => (n === 1 ? 'Gebruikers (1)' : `Gebruikers (${n})`),
    listFor: (name: string) => `Gebruikers van ${name}`,
    none: 'Nog geen gebruikers.',
    noAccount: 'Nog geen account',
    admin: 'Beheerder',
    adminFor: (email: string) => `Beheerder: ${email}`,
    adminOn: (email: string) => `${email} is nu beheerder.`,
    adminOff: (email: string) => `${email} is geen beheerder meer.`,
    adminFailed: 'De beheerder kon niet worden aangepast.',
    remove: 'Verwijder',
    removeFor: (email: string) => `${email} verwijderen`,
    removeTitle: 'Gebruiker verwijderen?',
    removeMessage: (email: string, sub: string) => `${email} wordt uit ${sub} verwijderd, met het organisatie abonnement.`,
    removeConfirm: 'Verwijderen',
    removed: (email: string) => `${email} is verwijderd.`,
    removeFailed: 'De gebruiker kon niet worden verwijderd.',
    email: 'E-mailadres',
    emailPlaceholder: 'naam@praktijk.nl',
    sendEmail: 'Registratiemail versturen',
    makeAdmin: 'Beheerder',
    add: 'Gebruiker toevoegen',
    addedAccount: (email: string) => `${email} is toegevoegd.`,
    addedAddress: (email: string) =>
      `${email} is toegevoegd. Er is nog geen account met dit adres; het abonnement wordt gekoppeld zodra de gebruiker inlogt.`,
    addFailed: 'De gebruiker kon niet worden toegevoegd.',
  },

  // the Looptijd modal
  duration: {
    title: 'Looptijd wijzigen',
    start: 'Startdatum (yyyy-mm-dd, optioneel)',
    end: 'Einddatum (yyyy-mm-dd)',
    startHelp: 'Een lege startdatum betekent dat het abonnement direct ingaat.',
    mainHelp: 'Na opslaan staat de looptijd op de hoofdorganisatie en geldt die voor alle suborganisaties.',
    followHelp:
      'De gekoppelde organisatie abonnementen volgen direct: ligt de einddatum in het verleden, dan worden ze inactief; anders weer actief.',
    saved: (n: number) =>
      n === 0
        ? 'De looptijd is opgeslagen.'
        : `De looptijd is opgeslagen; ${n === 1 ? '1 organisatie abonnement is' : `${n} organisatie abonnementen zijn`} aangepast.`,
    invalidDate: 'Abonnementen looptijd kon niet worden geupdate. Ongeldige datum.',
    failed: 'Abonnementen looptijd kon niet worden geupdate.',
  },

  // Organisatie abonnementen
  subscriptions: {
    heading: 'Abonnementen via organisatie',
    intro:
      'Actief en Geldig tot kunnen worden aangepast: ligt Geldig tot in het verleden, dan wordt Actief automatisch uit. Ze volgen de looptijd van de organisatie, die u wijzigt op het tabblad Organisaties (Looptijd bij de hoofdorganisatie of de suborganisatie).',
    activeOnly: 'Alleen actieve abonnementen',
    duplicates: 'Verwijder dubbele abonnementen',
    sync: 'Synchroniseren',
    syncHelp: 'Koppelt wachtende adressen aan accounts die nu bestaan en schrijft elke looptijd opnieuw.',
    synced: (linked: number, changed: number) =>
      `Gesynchroniseerd: ${linked === 1 ? '1 adres' : `${linked} adressen`} gekoppeld, ${changed === 1 ? '1 organisatie abonnement' : `${changed} organisatie abonnementen`} bijgewerkt.`,
    syncFailed: 'Synchroniseren is niet gelukt.',
    columns: {
      organisation: 'Organisatie',
      email: 'Email',
      sub: 'Suborganisatie',
      term: 'Looptijd',
      active: 'Actief',
      delete: 'Verwijderen',
    },
    problemsEmail: 'Gebruikers met een account die nog als adres zonder account aan een suborganisatie gekoppeld zijn',
    problemsLinked: 'Gebruikers met een account in een actieve suborganisatie zonder geactiveerd organisatie abonnement',
    problem: (email: string, sub: string) => `${email} (${sub})`,
    contactDevelopers: 'Neem contact op met het ontwikkelteam',
    delete: 'Verwijder',
    deleteFor: (email: string, sub: string) => `Abonnement van ${email} bij ${sub} verwijderen`,
    deleteTitle: 'Dubbel abonnement verwijderen?',
    deleteMessage: (email: string, sub: string) =>
      `Verwijder alleen dubbel ingevoerde abonnementen. Het abonnement van ${email} bij ${sub} wordt verwijderd; de gebruiker wordt niet uit de organisatie verwijderd.`,
    deleteConfirm: 'Verwijderen',
    deleted: 'Het dubbele abonnement is verwijderd.',
    deleteFailed: 'Het abonnement kon niet worden verwijderd.',
  },
} as const
