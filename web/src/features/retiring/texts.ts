/** Texts of the retiring environment: the banner and the renewed screen. */
export const retiringTexts = {
  banner: 'Nieuwe omgeving',
  stopsOn: (day: string) => `Deze pagina werkt vanaf ${day} niet meer.`,
  goThere: 'Ga naar de nieuwe omgeving',
  renewedTitle: 'Spreekkamer is vernieuwd',
  renewedHelp: 'Je wordt zo doorgestuurd naar de nieuwe omgeving.',
} as const
