import { useState } from 'react'
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { dangerButtonClass, secondaryButtonClass } from './buttonStyles'
import { Icon } from './Icon'
import { componentTexts as t } from './texts'

interface ConfirmDialogProps {
  open: boolean
  title: string
  message: string
  confirmLabel: string
  /** While the action runs the buttons are disabled. */
  busy?: boolean
  onConfirm: () => void
  onClose: () => void
}

/** Asks before something is removed; the safe choice has the focus. */
export function ConfirmDialog({ open, title, message, confirmLabel, busy = false, onConfirm, onClose }: ConfirmDialogProps) {
  // the texts stay while the dialog fades away, even when the caller has already let go of them
  const [shown, setShown] = useState({ title, message })
  if (open && (shown.title !== title || shown.message !== message)) setShown({ title, message })
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} className="fixed inset-0 z-40">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/40 transition-opacity data-closed:opacity-0" />
      <div className="fixed inset-0 z-40 flex min-h-full items-end justify-center p-4 sm:items-center">
        <DialogPanel
          transition
          className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl transition data-closed:translate-y-4 data-closed:opacity-0 sm:data-closed:translate-y-0 sm:data-closed:scale-95"
        >
          <div className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-100 text-red-600">
              <Icon name="warning" className="size-6" />
            </span>
            <div>
              <DialogTitle className="text-base font-semibold text-slate-900">{shown.title}</DialogTitle>
              <p className="mt-2 text-sm text-slate-600">{shown.message}</p>
            </div>
          </div>
          <div className="mt-6 flex flex-row-reverse flex-wrap gap-3">
            <button type="button" onClick={onConfirm} disabled={busy} className={dangerButtonClass}>
              {confirmLabel}
            </button>
            <button type="button" onClick={onClose} disabled={busy} className={secondaryButtonClass} data-autofocus>
              {t.cancel}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
