import { FALLBACK_SUPPORT_EMAIL, FEEDBACK_MAX_CHARS } from './texts'

export type FeedbackType = 'template' | 'faq' | 'status' | 'default'

/** The first segment of a path ('/template/entry/1' → 'template'), or null on Home. */
export function firstSegment(pathname: string): string | null {
  const segment = pathname.split('/').find((part) => part !== '')
  return segment ?? null
}

/** The widget's type: template on /template pages, faq on /faq, status on /status, else default. */
export function feedbackType(pathname: string): FeedbackType {
  const segment = firstSegment(pathname)
  return segment === 'template' || segment === 'faq' || segment === 'status' ? segment : 'default'
}

/** At 3000 characters or more the feedback is too long to send. */
export function isTooLong(text: string): boolean {
  return text.length >= FEEDBACK_MAX_CHARS
}

/** Whether the send button works: some text, not too long. */
export function canSend(text: string): boolean {
  return text.trim() !== '' && !isTooLong(text)
}

/** The consult id among the route's params, when the page has one. */
export function consultIdFrom(params: Record<string, unknown> | undefined): string | null {
  const id = params?.consultId
  return typeof id === 'string' && id !== '' ? id : null
}

/** The help address from the public settings; the fallback while they load or when they leave it empty. */
export function supportEmailOf(config: { supportEmail?: string | null } | undefined): string {
  const email = config?.supportEmail?.trim()
  return email ? email : FALLBACK_SUPPORT_EMAIL
}
