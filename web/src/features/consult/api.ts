import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

/** A live session the server opened (`POST /api/consult/audio/session` or `/api/consult/beta`). */
export type SessionOpened = components['schemas']['SessionOpened']

/** Opens a live session (the signed-in user's token goes with it); `beta` uses the new model's call. */
export async function openSession(beta: boolean, consultId?: string): Promise<SessionOpened> {
  const body = consultId ? { consultId } : {}
  return unwrap(beta ? await api.POST('/api/consult/beta', { body }) : await api.POST('/api/consult/audio/session', { body }))
}

/** The note of a summary call, or (202) the job that is still making it. */
export type SummaryAnswer = { note: components['schemas']['ConsultResult'] } | { jobId: string }

/** The classic routing's call (spec §7 "Summarise routing"): normal precision `v2-turbo`, high `v1` with the episode count. */
export type ClassicRoute = 'v1' | 'v2-turbo'

export function classicRoute(precision: 'medium' | 'high'): ClassicRoute {
  return precision === 'high' ? 'v1' : 'v2-turbo'
}

function answerOf(data: components['schemas']['ConsultResult'][] | components['schemas']['Accepted']): SummaryAnswer {
  if (Array.isArray(data)) return { note: data[0] ?? {} }
  return { jobId: data.jobId }
}

/** Summarises `transcript` (sent as plain text) by the classic routing. */
export async function summariseClassic(
  transcript: string,
  choices: { precision: 'medium' | 'high'; episodeCount: number; flavour: components['schemas']['Flavour'] },
): Promise<SummaryAnswer> {
  const body = {
    body: transcript,
    bodySerializer: (text: string) => text,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  }
  const result =
    classicRoute(choices.precision) === 'v1'
      ? await api.POST('/api/audio/consult/generative/v1', {
          params: { query: { episodeCount: choices.episodeCount, flavour: choices.flavour } },
          ...body,
        })
      : await api.POST('/api/audio/consult/generative/v2-turbo', { params: { query: { flavour: choices.flavour } }, ...body })
  return answerOf(unwrap(result))
}

/** Summarises a patient's written question (an e-consult); the server keeps it as a consult. */
export async function summariseEConsult(text: string, episodeCount: number): Promise<SummaryAnswer> {
  return answerOf(unwrap(await api.POST('/api/electronic/consult/generative', { body: { text, episodeCount } })))
}
