import type { IconName } from '@/components/Icon'

export interface ActionCard {
  title: string
  description: string
  to: string
  icon: IconName
}

export const homeTexts = {
  greeting: (name: string) => `Welkom, ${name}`,
  intro: 'Waar wil je vandaag mee beginnen?',
  actionsHeading: 'Acties',
} as const

/** The action cards of Home, in the order the specification lists them. */
export const actionCards: readonly ActionCard[] = [
  {
    title: 'Gesproken consult',
    description: 'Neem een consult op en ontvang direct een SOEP-verslag.',
    to: '/consult/v1/audio',
    icon: 'microphone',
  },
  {
    title: 'Nieuw Gesproken consult',
    description: 'Het nieuwe model, met live transcriptie tijdens het gesprek.',
    to: '/audioconsult/beta/soap',
    icon: 'sparkles',
  },
  {
    title: 'POH-GGZ Consult',
    description: 'Een verslag afgestemd op gesprekken van de POH-GGZ.',
    to: '/audioconsult/beta/soap/poh-ggz',
    icon: 'chat',
  },
  {
    title: 'Dicteren',
    description: 'Spreek een brief of notitie in en zie de tekst meteen verschijnen.',
    to: '/audioconsult/beta/dictation',
    icon: 'document',
  },
  {
    title: 'E-consult',
    description: 'Beantwoord de vraag van een patiënt met hulp van een samenvatting.',
    to: '/consult/v1/econsult',
    icon: 'inbox',
  },
  {
    title: 'Radiologie',
    description: 'Dicteer een radiologieverslag met het radiologiemodel.',
    to: '/audioconsult/beta/radiology',
    icon: 'photo',
  },
  {
    title: 'Profiel aanvullen',
    description: 'Vertel hoe je aangesproken wilt worden en in welke praktijk je werkt.',
    to: '/onboarding/',
    icon: 'user',
  },
  {
    title: 'Personaliseer',
    description: 'Voeg eigen SOEP-voorbeelden toe, zodat verslagen aansluiten bij jouw stijl.',
    to: '/personalize',
    icon: 'adjustments',
  },
]
