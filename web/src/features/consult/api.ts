import { ApiError } from '@/api/client'

/** A live session the server opened (`POST /api/consult/audio/session` or `/api/consult/beta`). */
export interface SessionOpened {
  sessionId: string
  consultId: string
  expiresAt: string
}

/** Opens a live session; `beta` uses the new model's call. */
export async function openSession(token: string, beta: boolean, consultId?: string): Promise<SessionOpened> {
  const path = beta ? '/api/consult/beta' : '/api/consult/audio/session'
  const response = await fetch(path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(consultId ? { consultId } : {}),
  })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) throw new ApiError(response.status, body)
  return body as SessionOpened
}
