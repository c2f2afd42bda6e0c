import { useState, type FormEvent } from 'react'
import { ApiError } from '@/api/client'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import type { ToastOptions } from '@/components/Toast'
import { MODAL_MESSAGE_MS } from '../rules'
import { cmsTexts as t } from '../texts'
import { inputClass, Modal, ModalError, useTimedMessage } from './ui'

/**
 * A modal with one date (a valid-until, a renewal's start): checked by `problem` before it is
 * sent, whose message shows 8 s in the modal; `onSave` sends it and says whether it is done (the
 * modal closes) or failed (it stays, the owner said why). Give it a `key` per record so it starts
 * from that record's date.
 */
export function DateDialog({
  open,
  title,
  about,
  intro,
  label,
  help,
  initial,
  problem,
  submitLabel = t.save,
  onSave,
  onClose,
}: {
  open: boolean
  title: string
  /** What the date is of (a subscription and its user). */
  about: string
  intro?: string
  label: string
  help?: string
  initial: string
  problem: (value: string) => string | null
  submitLabel?: string
  onSave: (value: string) => Promise<boolean>
  onClose: () => void
}) {
  const [value, setValue] = useState(initial)
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = problem(value)
    if (found) return error.show(found)
    error.clear()
    setBusy(true)
    try {
      if (await onSave(value.trim())) onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal open={open} title={title} onClose={onClose} busy={busy}>
      <p className="mt-1 text-sm break-words text-slate-600">{about}</p>
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-4 space-y-3">
        {intro && <p className="text-sm text-slate-600">{intro}</p>}
        <label className="block text-sm font-medium text-slate-700">
          {label}
          <input
            type="text"
            inputMode="numeric"
            value={value}
            aria-invalid={error.message ? true : undefined}
            onChange={(e) => setValue(e.target.value)}
            className={`mt-1 ${inputClass}`}
          />
        </label>
        {help && <p className="text-sm text-slate-500">{help}</p>}
        <ModalError message={error.message} />
        <div className="flex flex-row-reverse flex-wrap gap-3">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {submitLabel}
          </button>
          <button type="button" onClick={onClose} disabled={busy} className={secondaryButtonClass}>
            {t.close}
          </button>
        </div>
      </form>
    </Modal>
  )
}

/**
 * The toast of a date that was not saved (spec §8): `failed` when given (the renew modal's
 * 'Subscription kon niet worden aangemaakt.'), else for a refused date (400) 'Subscription kon
 * niet worden geupdate. Ongeldige datum.' and otherwise '… kon niet worden geupdate.'; the api's
 * reason under it.
 */
export function dateFailure(failure: unknown, failed: string | null): ToastOptions {
  const reason = failure instanceof ApiError ? failure.message : undefined
  const refused = failure instanceof ApiError && failure.status === 400
  return { tone: 'error', message: failed ?? (refused ? t.subscriptions.updateInvalidDate : t.subscriptions.updateFailed), detail: reason }
}
