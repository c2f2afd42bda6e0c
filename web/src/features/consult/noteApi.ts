import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

/** A consult as the api gives it back, with the note the page kept (`note`, `noteSavedAt`). */
export type StoredConsult = components['schemas']['ConsultView']

/** One of the user's consults; an error (404) when it is gone or not theirs. */
export async function readConsult(id: string): Promise<StoredConsult> {
  return unwrap(await api.GET('/api/consult/{consult_id}', { params: { path: { consult_id: id } } }))
}

/** A new, empty consult to keep a note with before any session opened one. */
export async function createConsult(): Promise<string> {
  return unwrap(await api.PUT('/api/consult', { body: { content: {} } })).id
}

/** The note as the document types it: a free-form JSON object. */
type NoteBody = components['schemas']['ConsultNote']['note']

/** Keeps the note with the consult; answers when it was saved. */
export async function saveNote(id: string, note: Record<string, unknown>): Promise<string> {
  // the generator types a free-form object as one without fields; the api takes any object
  const body = { note: note as NoteBody }
  return unwrap(await api.PUT('/api/consult/{consult_id}/note', { params: { path: { consult_id: id } }, body })).noteSavedAt
}
