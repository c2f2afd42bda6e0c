export const errorTexts = {
  unexpectedTitle: 'Unexpected Application Error!',
  unexpectedHelp: 'Er ging iets mis in Spreekkamer. Probeer de pagina opnieuw te laden. Blijft het misgaan, neem dan contact met ons op.',
  details: 'Technische details',
  retry: 'Opnieuw proberen',
  notFoundCode: '404',
  notFoundTitle: 'Pagina niet gevonden',
  notFoundHelp: 'De pagina die je zoekt bestaat niet (meer) of is nog niet beschikbaar.',
  toOverview: 'Naar Overzicht',
} as const
