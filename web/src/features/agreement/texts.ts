export const agreementTexts = {
  title: 'Welkom',
  intro: 'Fijn dat je Spreekkamer wilt gebruiken.',
  explanation:
    'Voordat je aan de slag kunt, vragen we je de gebruikersovereenkomst te lezen en te accepteren. ' +
    'Daarin staat onder meer hoe Spreekkamer met consultgegevens en persoonsgegevens omgaat. ' +
    'Zonder geaccepteerde overeenkomst kun je Spreekkamer nog niet gebruiken.',
  download: 'Download de gebruikersovereenkomst (PDF)',
  downloaded: 'Gedownload',
  accept: 'Ik ga akkoord',
  accepting: 'Bezig…',
  downloadFirst: 'Download eerst de overeenkomst om verder te gaan.',
  acceptFailed: 'De overeenkomst kon niet worden vastgelegd. Probeer het opnieuw.',
  signedInAs: 'Ingelogd als',
  signOut: 'Uitloggen',
} as const
