import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

export type FeedbackBody = components['schemas']['Feedback']

/** Sends feedback; the api answers with the id it was stored under. */
export async function sendFeedback(body: FeedbackBody) {
  return unwrap(await api.POST('/api/feedback', { body }))
}
