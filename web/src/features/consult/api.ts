import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

/** A live session the server opened (`POST /api/consult/audio/session` or `/api/consult/beta`). */
export type SessionOpened = components['schemas']['SessionOpened']

/** Opens a live session (the signed-in user's token goes with it); `beta` uses the new model's call. */
export async function openSession(beta: boolean, consultId?: string): Promise<SessionOpened> {
  const body = consultId ? { consultId } : {}
  return unwrap(beta ? await api.POST('/api/consult/beta', { body }) : await api.POST('/api/consult/audio/session', { body }))
}
