import { useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Modal, ModalError, useTimedMessage } from '../components/ui'
import { MODAL_MESSAGE_MS } from '../rules'
import { cmsTexts } from '../texts'
import { refreshOrganisations, setMainDuration, setSubDuration } from './api'
import { useFeedback } from './feedback'
import { DateInput } from './fields'
import { durationProblem } from './rules'
import { organisationTexts as t } from './texts'

const d = t.duration

/** Whose term the modal changes, and the term it starts from. */
export interface DurationTarget {
  kind: 'main' | 'sub'
  id: string
  name: string
  startDate: string | null
  endDate: string | null
}

/**
 * 'Looptijd' of a main or a sub-organisation (§2.3, §5): the end (required) and the start
 * (optional: empty starts at once), checked before sending; the linked organisation subscriptions
 * follow at once. A failure shows in the modal with the spec's message (§8: 'Abonnementen looptijd
 * kon niet worden geupdate. Ongeldige datum.' for a refused date, '… kon niet worden geupdate.'
 * otherwise) and the api's reason under it, e.g. that the main organisation keeps the term (409).
 */
export function DurationDialog({ target, onClose }: { target: DurationTarget | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const [start, setStart] = useState(target?.startDate ?? '')
  const [end, setEnd] = useState(target?.endDate ?? '')
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)
  // the api's reason under a failure's message
  const [reason, setReason] = useState<string | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!target) return
    const problem = durationProblem(start, end)
    setReason(null)
    if (problem) return error.show(problem)
    error.clear()
    setBusy(true)
    const body = { startDate: start.trim() === '' ? null : start.trim(), endDate: end.trim() }
    try {
      const set = target.kind === 'main' ? await setMainDuration(target.id, body) : await setSubDuration(target.id, body)
      feedback({ tone: 'success', message: d.saved(set.subscriptionsChanged) })
      onClose()
    } catch (failure) {
      // shown in the modal: a toast would sit on the page behind it, inert while it is open
      const invalid = failure instanceof ApiError && failure.status === 400
      setReason(failure instanceof ApiError ? failure.message : null)
      error.show(invalid ? d.invalidDate : d.failed)
    } finally {
      await refreshOrganisations(queryClient)
      setBusy(false)
    }
  }

  return (
    <Modal open={target !== null} title={d.title} onClose={onClose} busy={busy}>
      <p className="mt-1 text-sm break-words text-slate-600">{target?.name}</p>
      <form noValidate onSubmit={(event) => void submit(event)} className="mt-4 space-y-3">
        <DateInput label={d.start} value={start} onChange={setStart} />
        <DateInput label={d.end} value={end} onChange={setEnd} />
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-500">
          <li>{d.startHelp}</li>
          {target?.kind === 'main' && <li>{d.mainHelp}</li>}
          <li>{d.followHelp}</li>
        </ul>
        <ModalError message={error.message} />
        {error.message && reason && reason !== error.message && <p className="-mt-2 text-sm break-words text-slate-600">{reason}</p>}
        <div className="flex flex-row-reverse flex-wrap gap-3">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {cmsTexts.save}
          </button>
          <button type="button" onClick={onClose} disabled={busy} className={secondaryButtonClass}>
            {cmsTexts.close}
          </button>
        </div>
      </form>
    </Modal>
  )
}
