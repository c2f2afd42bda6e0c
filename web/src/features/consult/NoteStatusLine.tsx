import type { NoteStatus } from './useConsultNote'
import { consultNoteTexts as n } from './texts'

const timeFormat = new Intl.DateTimeFormat('nl-NL', { hour: '2-digit', minute: '2-digit' })

/** A quiet line under the note: whether it is kept on the server (so a reload brings it back). */
export function NoteStatusLine({ status }: { status: NoteStatus }) {
  if (status.kind === 'idle') return null
  if (status.kind === 'failed') {
    return (
      <p role="alert" className="mt-3 text-sm font-medium text-red-700" data-testid="note-status">
        {n.saveFailed}
      </p>
    )
  }
  return (
    <p role="status" className="mt-3 text-sm text-slate-500" data-testid="note-status" data-state={status.kind}>
      {status.kind === 'saving' ? n.saving : n.saved(timeFormat.format(status.at))}
    </p>
  )
}
