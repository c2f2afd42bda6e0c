/** Texts of the live consult page (/audioconsult/...). Quoted texts come from the specification. */
export const consultTexts = {
  headings: {
    soap: 'Gesproken consult',
    report: 'Verslag',
    dictation: 'Dicteren',
    radiology: 'Radiologie',
    specialist: 'Specialistenbrief',
    meeting: 'Overleg',
  } as Record<string, string>,
  pohGgz: 'POH-GGZ',

  microphone: 'Microfoon',
  selectMicrophone: 'Selecteer microfoon',
  unnamedMicrophone: (n: number) => `Microfoon ${n}`,
  start: 'Start',
  pause: 'Pauzeer',
  restart: 'Opnieuw',
  summarize: 'Samenvatten',
  copy: 'Kopieren',
  copyWhole: 'Kopieer hele verslag',
  copied: 'Gekopieerd naar het klembord.',
  copyFailed: 'Kopiëren lukte niet. Selecteer de tekst en kopieer hem zelf.',
  fillLastSentences: 'Vul laatste zinnen aan',
  draftedWithoutModel: 'Opgesteld zonder taalmodel, uit de zinnen van het transcript. Controleer het verslag voordat je het overneemt.',
  problemsFound: (n: number) => `${n} problemen gevonden — als ${n} episodes tonen?`,
  showAsEpisodes: (n: number) => `Als ${n} episodes tonen`,
  codes: {
    heading: 'ICPC-suggesties',
    hint: 'Klik op een code om de zinnen uit het transcript te zien waarop de suggestie steunt.',
    accept: 'Overnemen',
    accepted: 'Overgenomen',
    acceptCode: (code: string) => `${code} overnemen`,
    removeCode: (code: string) => `${code} verwijderen`,
    evidence: (code: string) => `Onderbouwing van ${code} in het transcript`,
  },

  settings: 'Instellingen',
  template: 'Sjabloon',
  templates: {
    soap: 'SOEP',
    report: 'Verslag',
    dictation: 'Dictatie',
    radiology: 'Radiologie',
    specialist: 'Specialist',
    meeting: 'Overleg',
  } as Record<string, string>,
  episodes: 'Episodes',
  precision: 'Precisie',
  precisionMedium: 'Normaal',
  precisionHigh: 'Hoog',

  connecting: 'Verbinden…',
  openingMicrophone: 'Microfoon wordt gestart…',
  retryMicrophone: 'Microfoon opnieuw proberen',
  recording: 'Opname loopt',
  paused: 'Gepauzeerd',
  recordingTime: 'Opnameduur',
  reconnecting: 'De verbinding is weggevallen. Opnieuw verbinden… Het geluid wordt in de tussentijd bewaard.',
  kept: (seconds: number) => `${seconds} s geluid bewaard`,
  bufferFull:
    'De verbinding is al meer dan 10 minuten weg. Wat daarna is gezegd, kan niet meer worden bewaard; het eerdere geluid wordt verstuurd zodra de verbinding terug is.',

  transcript: 'Transcript',
  collapse: 'Transcript inklappen',
  expand: 'Transcript uitklappen',
  clinician: 'Zorgverlener',
  otherSpeaker: 'Patiënt',
  emptyTranscript: 'Het gesprek verschijnt hier zodra er gesproken wordt.',

  noEngine:
    'Er is geen spraakherkenning ingesteld. Typ of plak het gesprek in het tekstveld en druk op Samenvatten.',
  typeInstead: 'Zonder microfoon kun je het gesprek typen of plakken in het tekstveld en op Samenvatten drukken.',
  typedTranscript: 'Gesprek (getypt of geplakt)',
  typedPlaceholder: 'Typ of plak hier het gesprek tussen zorgverlener en patiënt.',

  summarizing: 'Samenvatting wordt gemaakt…',
  summaryProgress: 'Voortgang van de samenvatting',
  jobState: (state: string) => `Status: ${state}`,
  summaryFailed: 'De samenvatting kon niet worden gemaakt.',
  summaryDelayed: 'Het samenvatten duurt langer dan verwacht. Je transcript blijft bewaard.',
  retrySummary: 'Opnieuw proberen',
  summaryKeptChanges: 'De samenvatting is ingevuld. Tekst die tijdens het wachten is geschreven of gedicteerd, is bewaard.',

  result: 'Resultaat',
  episode: (n: number) => `Episode ${n}`,
  subjective: 'Subjectief',
  objective: 'Objectief',
  evaluation: 'Evaluatie',
  plan: 'Plan',
  report: 'Verslag',
  dictation: 'Dictatie',
  summary: 'Samenvatting',
  meeting: 'Verslag van het overleg',

  micDenied:
    'De browser geeft geen toegang tot de microfoon. Klik op het slotje of het microfoonsymbool in de adresbalk, sta de microfoon toe voor deze site en kies daarna ‘Microfoon opnieuw proberen’.',
  micMissing:
    'Er is geen microfoon gevonden. Sluit een microfoon of headset aan, selecteer hem hieronder en kies ‘Microfoon opnieuw proberen’.',
  micBusy:
    'De microfoon is in gebruik door een ander programma of kon niet worden gestart. Sluit dat programma of selecteer hieronder een andere microfoon en kies ‘Microfoon opnieuw proberen’.',
  micUnsupported: 'Deze browser kan geen geluid opnemen. Gebruik een recente versie van Chrome, Edge, Firefox of Safari.',
  sessionFailed: 'De opname kon niet worden gestart. Controleer je internetverbinding en probeer het opnieuw.',

  closed: {
    4400: 'De verbinding werd geweigerd: ongeldig verzoek.',
    4401: 'Je inlog is verlopen. Log opnieuw in en start een nieuwe opname.',
    4403: 'Accepteer eerst de gebruikersovereenkomst. Log opnieuw in om haar te lezen en te accepteren.',
    4404: 'Deze sessie bestaat niet (meer). Druk op Opnieuw en start een nieuwe opname.',
    4409: 'Deze sessie is op een andere plek geopend, bijvoorbeeld in een ander tabblad. Hier is de opname gestopt.',
    4410: 'Deze sessie is verlopen. Druk op Opnieuw en start een nieuwe opname.',
    1009: 'Een geluidsfragment was te groot voor de server. Druk op Opnieuw en start een nieuwe opname.',
  } as Record<number, string>,
  connectionLost: 'De verbinding met de server kon niet worden hersteld. Druk op Opnieuw om een nieuwe opname te starten.',
} as const

/** Texts of the e-consult page (/consult/v1/econsult). */
export const econsultTexts = {
  heading: 'E-consult',
  intro: 'Plak de vraag van de patiënt. Je krijgt een samenvatting en een concept-antwoord in gewone taal; beide kun je aanpassen en kopiëren.',
  question: 'Vraag van de patiënt',
  questionPlaceholder: 'Plak hier het bericht van de patiënt.',
  summarize: 'Samenvatten',
  empty: 'Plak eerst de vraag van de patiënt.',
  summary: 'Samenvatting',
  reply: 'Concept-antwoord aan de patiënt',
  replyCheck: 'Controleer het antwoord en pas het aan voordat je het verstuurt.',
  noAdvice:
    'De samenvatting bevat geen beoordeling of advies. Vul je advies zelf aan in het antwoord voordat je het verstuurt.',
} as const

/** Texts of the consult page's note kept on the server, the questions before it is discarded, and the speech engine known before Start. */
export const consultNoteTexts = {
  noEngineBeforeStart:
    'Er is geen spraakherkenning ingesteld, dus opnemen kan hier niet. Typ of plak het gesprek in het tekstveld, druk op Start en daarna op Samenvatten.',
  saving: 'Notitie wordt bewaard…',
  saved: (time: string) => `Notitie bewaard om ${time}. Na herladen staat ze er weer.`,
  saveFailed: 'De notitie kon niet worden bewaard. Het wordt zo opnieuw geprobeerd; kopieer je tekst voor de zekerheid.',
  restoring: 'Het consult wordt geopend…',
  restored: 'De notitie van dit consult is teruggezet zoals je haar achterliet.',
  gone: 'Dit consult is niet meer beschikbaar: de bewaartermijn is verstreken. Je begint met een lege notitie.',
  discardTitle: 'Wijzigingen in de notitie weggooien?',
  discardLeave: 'Je hebt de notitie aangepast. Als je deze pagina verlaat, wordt de notitie niet meer getoond en gaan je aanpassingen hier verloren. Kopieer de notitie eerst als je haar nog nodig hebt.',
  discardRestart: 'Je hebt de notitie aangepast. Met Opnieuw begin je een nieuw consult en gaan de notitie en je aanpassingen verloren.',
  discardConfirm: 'Weggooien',
} as const
