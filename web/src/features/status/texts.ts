export const statusTexts = {
  title: 'Status',
  intro: 'Hier zie je of Spreekkamer en de onderdelen waarop het draait op dit moment bereikbaar zijn.',
  ready: 'Spreekkamer werkt naar behoren',
  readyHelp: 'Alle onderdelen zijn bereikbaar. Je kunt consulten opnemen en verslagen maken.',
  degraded: 'Spreekkamer werkt op dit moment niet volledig',
  degradedHelp: 'Een of meer onderdelen zijn niet bereikbaar. Opnemen of samenvatten kan mislukken; we werken aan een oplossing.',
  unreachable: 'De server van Spreekkamer is niet bereikbaar',
  unreachableHelp: 'Controleer je internetverbinding. Werkt die wel, dan is Spreekkamer tijdelijk niet beschikbaar.',
  components: 'Onderdelen',
  ok: 'Werkt',
  failing: (reason: string) => `Storing: ${reason}`,
  checkedAt: (time: string) => `Laatst gecontroleerd om ${time}`,
  refresh: 'Opnieuw controleren',
  contact: 'Gaat er iets mis terwijl hier alles werkt? Neem dan contact met ons op, dan zoeken we het uit.',
} as const

/** Dutch names of the api's readiness checks. */
export const checkNames: Record<string, string> = {
  postgres: 'Database',
  redis: 'Wachtrij en sessiegegevens',
}

/** Dutch wording of the reasons the api gives for a failing check. */
const reasons: Record<string, string> = {
  unreachable: 'niet bereikbaar',
  'no reply within 2 s': 'geen antwoord binnen 2 seconden',
}

export function checkName(name: string): string {
  return checkNames[name] ?? name
}

export function failureReason(reason: string): string {
  return reasons[reason] ?? reason
}
