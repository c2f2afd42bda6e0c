import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { ApiError } from '@/api/client'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { emptyBillingForm, firstBillingProblem, messageDuration, type BillingForm } from './billing'
import { subscriptionTexts as t } from './texts'

interface BillingDialogProps {
  open: boolean
  /** What is being bought, shown above the form. */
  summary: string
  trial: boolean
  onClose: () => void
  /** Sends the details; a refusal's Dutch message is shown in the dialog. */
  onSubmit: (form: BillingForm) => Promise<void>
}

const order: (keyof BillingForm)[] = [
  'contactName',
  'practiceName',
  'phoneNumber',
  'streetAddress',
  'houseNumber',
  'houseNumberAddition',
  'postcode',
  'city',
  'sendInvoiceToEmail',
  'kvkNumber',
]

const inputClass =
  'mt-1 block w-full rounded-md border-0 px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-700 focus:ring-inset aria-invalid:ring-red-500'

/** The billing dialog (§2.1, §5): contact and invoice details, checked in the spec's order; each message shows 5 s (the trial's refusal 10 s, §8). */
export function BillingDialog({ open, summary, trial, onClose, onSubmit }: BillingDialogProps) {
  const [form, setForm] = useState<BillingForm>(emptyBillingForm)
  const [problem, setProblem] = useState<{
    field?: keyof BillingForm
    message: string
  } | null>(null)
  const [busy, setBusy] = useState(false)
  const timer = useRef<number | undefined>(undefined)

  useEffect(() => () => window.clearTimeout(timer.current), [])

  const show = (next: { field?: keyof BillingForm; message: string }) => {
    setProblem(next)
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => setProblem(null), messageDuration(next.message))
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = firstBillingProblem(form)
    if (found) {
      show(found)
      document.getElementById(`billing-${found.field}`)?.focus()
      return
    }
    setBusy(true)
    try {
      await onSubmit(form)
    } catch (failure) {
      show({
        message: failure instanceof ApiError ? failure.message : t.loadFailed,
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} className="fixed inset-0 z-40">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/40 transition-opacity data-closed:opacity-0" />
      <div className="fixed inset-0 z-40 flex min-h-full items-end justify-center overflow-y-auto p-4 sm:items-center">
        <DialogPanel
          transition
          className="w-full max-w-xl rounded-xl bg-white p-6 shadow-xl transition data-closed:translate-y-4 data-closed:opacity-0"
        >
          <DialogTitle className="text-lg font-semibold text-slate-900">{t.billingTitle}</DialogTitle>
          <p className="mt-1 text-sm text-slate-600">{summary}</p>
          <p className="mt-1 text-sm text-slate-500">{t.billingIntro}</p>
          <form noValidate onSubmit={(e) => void submit(e)} className="mt-5 grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2">
            {order.map((field) => (
              <label
                key={field}
                htmlFor={`billing-${field}`}
                className={`block text-sm font-medium text-slate-700 ${field === 'contactName' || field === 'sendInvoiceToEmail' ? 'sm:col-span-2' : ''}`}
              >
                {t.fields[field]}
                <input
                  id={`billing-${field}`}
                  name={field}
                  type={field === 'sendInvoiceToEmail' ? 'email' : field === 'phoneNumber' ? 'tel' : 'text'}
                  autoComplete={autoComplete[field]}
                  value={form[field]}
                  aria-invalid={problem?.field === field || undefined}
                  onChange={(e) => setForm((prev) => ({ ...prev, [field]: e.target.value }))}
                  className={inputClass}
                />
              </label>
            ))}
            <div className="min-h-6 sm:col-span-2" aria-live="assertive">
              {problem && (
                <p role="alert" className="text-sm font-medium text-red-700">
                  {problem.message}
                </p>
              )}
            </div>
            <div className="flex flex-row-reverse flex-wrap gap-3 sm:col-span-2">
              <button type="submit" disabled={busy} className={primaryButtonClass}>
                {trial ? t.activateTrial : t.toPayment}
              </button>
              <button type="button" disabled={busy} onClick={onClose} className={secondaryButtonClass}>
                {t.close}
              </button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  )
}

const autoComplete: Record<keyof BillingForm, string> = {
  contactName: 'name',
  practiceName: 'organization',
  sendInvoiceToEmail: 'email',
  phoneNumber: 'tel',
  streetAddress: 'address-line1',
  houseNumber: 'off',
  houseNumberAddition: 'off',
  postcode: 'postal-code',
  city: 'address-level2',
  kvkNumber: 'off',
}
