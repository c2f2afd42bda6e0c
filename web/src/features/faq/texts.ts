export const faqTexts = {
  title: 'Veelgestelde vragen',
  intro: 'Antwoorden op de vragen die we het vaakst krijgen over het werken met Spreekkamer.',
  more: 'Staat je vraag er niet tussen? Neem contact met ons op, we helpen je graag.',
} as const

export interface FaqItem {
  question: string
  answer: string
}

export const faqItems: readonly FaqItem[] = [
  {
    question: 'Hoe neem ik een consult op?',
    answer:
      'Kies op het Overzicht voor Gesproken consult of Nieuw Gesproken consult. Selecteer je microfoon en klik op Start. ' +
      'Tijdens het gesprek zie je het transcript meelopen. Met Pauzeer zet je de opname even stil, met Opnieuw begin je helemaal opnieuw.',
  },
  {
    question: 'Hoe komt het SOEP-verslag tot stand?',
    answer:
      'Klik na het gesprek op Samenvatten. Spreekkamer zet het transcript om in een verslag met Subjectief, Objectief en Plan, ' +
      'zo nodig in meerdere episodes. Alle velden kun je aanpassen en met Kopieren neem je de tekst over in je HIS. ' +
      'Lees het verslag altijd na voordat je het overneemt: jij blijft verantwoordelijk voor het dossier.',
  },
  {
    question: 'Wat is het verschil tussen Dicteren en Radiologie?',
    answer:
      'Bij Dicteren spreek je zelf een brief of notitie in en verschijnt de tekst direct op het scherm. ' +
      'Radiologie werkt hetzelfde, maar gebruikt een spraakmodel dat de vaktaal van radiologieverslagen kent.',
  },
  {
    question: 'Wat gebeurt er met de gegevens van een consult?',
    answer:
      'Consultgegevens zijn medische gegevens. Spreekkamer bewaart ze alleen zo lang als nodig is en verwijdert ze daarna automatisch. ' +
      'Ze komen niet in logbestanden terecht en gaan nooit naar betaal- of boekhoudpartijen.',
  },
  {
    question: 'Wat zijn templates?',
    answer:
      'Templates zijn vaste tekstregels voor Subjectief, Objectief of Plan, eventueel met ICPC-codes. ' +
      'Je maakt eigen templates of gebruikt gedeelde, en bundelt ze in groepen die je vaak samen nodig hebt.',
  },
  {
    question: 'Kan ik de verslagen laten aansluiten bij mijn eigen stijl?',
    answer:
      'Ja. Onder Personaliseer voeg je eigen SOEP-voorbeelden toe. Spreekkamer gebruikt die als voorbeeld bij het samenvatten.',
  },
  {
    question: 'Welke abonnementen zijn er?',
    answer:
      'Onder Abonnementen kies je een abonnement voor jezelf of voor meerdere gebruikers, met maandelijkse of jaarlijkse betaling ' +
      '(jaarlijks met 5% korting). Daar zie je ook je betalingen en download je facturen. ' +
      'Valt je praktijk onder een abonnement van je organisatie, dan zie je dat daar eveneens.',
  },
]
