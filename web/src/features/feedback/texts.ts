/**
 * Where long feedback can go instead (named in the warning at 3000 characters): `supportEmail` of
 * the public settings; this address only while they load.
 */
export const FALLBACK_SUPPORT_EMAIL = 'support@spreekkamer.nl'

/** At this many characters or more the feedback cannot be sent (the specification: max 3000). */
export const FEEDBACK_MAX_CHARS = 3000
/** How long the success state shows, then how long the thanks message shows. */
export const FEEDBACK_SUCCESS_MS = 1_500
export const FEEDBACK_THANKS_MS = 9_000
/** How long the hint bubble beside the button shows (the specification: 3.5 s). */
export const FEEDBACK_HINT_MS = 3_500

export const feedbackRatings = [1, 2, 3, 4, 5] as const

export const feedbackTexts = {
  open: 'Feedback geven',
  close: 'Feedback sluiten',
  title: 'Feedback',
  intro: 'Wat vind je van deze pagina? Laat het ons weten.',
  text: 'Je feedback',
  rating: 'Beoordeling (1 tot 5)',
  ratingLabel: (rating: number) => `${rating} van 5`,
  anonymous: 'Anoniem versturen',
  send: 'Versturen',
  sending: 'Versturen…',
  tooLong: (length: number, supportEmail: string) =>
    `Je feedback is ${length} tekens lang; dat is te lang. Maak je feedback korter dan ${FEEDBACK_MAX_CHARS} tekens, of mail ons op ${supportEmail}.`,
  sent: 'Verstuurd',
  // As the specification writes it.
  thanks: 'Bedankt! De feedback komt direct bij het ontwikkelteam terecht.',
  sendFailed: 'Je feedback kon niet worden verstuurd. Probeer het later opnieuw.',
  hint: 'Klopt de samenvatting? Laat het ons weten met Feedback geven.',
} as const
