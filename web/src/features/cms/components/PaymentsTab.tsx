import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { useJob } from '@/features/jobs'
import { editPayment, paymentsQuery, refreshAfter, startBookkeeping, type CmsPayment, type PaymentStatus } from '../api'
import { day, euros } from '../format'
import { bookkeepingView, firstInvoiceProblem, invoiceFields, invoiceFormOf, MODAL_MESSAGE_MS, type Bookkeeping, type BookkeepingAction, type InvoiceForm } from '../rules'
import { cmsTexts as t } from '../texts'
import { CmsTable, usePagedFilter, type Column } from './CmsTable'
import { Check, Cross, Modal, ModalError, PanelHeading, inputClass, selectClass, useTimedMessage } from './ui'

const p = t.payments
const statuses = Object.keys(t.paymentStatus) as PaymentStatus[]

/** Betalingen: every payment, its bookkeeping (contact, invoice) and its invoice details. */
export function PaymentsTab() {
  const list = usePagedFilter({ status: 'ALL' })
  const payments = useQuery(paymentsQuery({ page: list.page, search: list.search, status: list.filters.status }))
  const [editing, setEditing] = useState<CmsPayment | null>(null)
  const c = p.columns

  const columns: Column<CmsPayment>[] = [
    {
      header: c.description,
      cell: (payment) => (
        <>
          <p className="font-medium text-slate-900">{payment.description}</p>
          <p className="break-all text-slate-500">{payment.userEmail}</p>
        </>
      ),
    },
    {
      header: c.status,
      fit: 'nowrap',
      cell: (payment) => (
        <span className={payment.paymentStatus === 'PAID' ? 'font-semibold text-emerald-700' : undefined}>{t.paymentStatus[payment.paymentStatus]}</span>
      ),
    },
    { header: c.amount, fit: 'nowrap', align: 'right', className: 'text-slate-900', cell: (payment) => euros(payment.amountCents) },
    { header: c.invoice, cell: (payment) => <BookkeepingCell payment={payment} /> },
    {
      header: c.contact,
      cell: (payment) => (
        <>
          <p className="text-slate-900">{payment.contactName || t.none}</p>
          {payment.practiceName && <p className="text-slate-500">{payment.practiceName}</p>}
        </>
      ),
    },
    { header: c.date, fit: 'nowrap', cell: (payment) => day(payment.createdAt) },
    {
      header: c.actions,
      hideHeader: true,
      align: 'right',
      cell: (payment) => (
        <button type="button" onClick={() => setEditing(payment)} className={`-mx-2 ${iconButtonClass}`} aria-label={p.editFor(payment.description)} title={p.edit}>
          <Icon name="pencil" className="size-4" />
        </button>
      ),
    },
  ]

  return (
    <section aria-labelledby="cms-betalingen">
      <PanelHeading id="cms-betalingen" title={t.tabs.betalingen} />
      <CmsTable
        label={t.tabs.betalingen}
        columns={columns}
        rowKey={(payment) => payment.id}
        query={payments}
        list={list}
        searchPlaceholder={p.searchPlaceholder}
        filters={
          <label className="block w-full text-sm font-medium text-slate-700 sm:w-56">
            {p.statusFilter}
            <select value={list.filters.status} onChange={(e) => list.setFilter('status', e.target.value)} className={`mt-1 ${selectClass}`}>
              <option value="ALL">{t.all}</option>
              {statuses.map((status) => (
                <option key={status} value={status}>
                  {t.paymentStatus[status]}
                </option>
              ))}
            </select>
          </label>
        }
      />

      <EditPaymentDialog key={editing?.id ?? 'none'} payment={editing} onClose={() => setEditing(null)} />
    </section>
  )
}

/**
 * The 'Factuur gemaakt' cell: the button the payment needs, 'Bezig…' while its job runs (polled
 * through `GET /api/jobs/{id}`), then the payments are read again so the check appears; a failed
 * job shows its error and a red cross.
 */
function BookkeepingCell({ payment }: { payment: CmsPayment }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [started, setStarted] = useState<{ jobId: string; from: Bookkeeping } | null>(null)
  const [starting, setStarting] = useState(false)
  const jobId = started?.jobId ?? payment.job?.id
  const job = useJob(jobId)
  const state = job.data?.state ?? (jobId === payment.job?.id ? payment.job?.state : undefined)

  // a job seen under way (or started here) that finished: read the payments again, once per job
  const finished = state === 'succeeded' || state === 'failed' || state === 'dead'
  const underWay = useRef<string | null>(null)
  const refreshed = useRef<string | null>(null)
  useEffect(() => {
    if (!jobId || !state) return
    if (!finished) underWay.current = jobId
    else if (refreshed.current !== jobId && (underWay.current === jobId || started?.jobId === jobId)) {
      refreshed.current = jobId
      void refreshAfter(queryClient, 'jobs')
    }
  }, [finished, state, jobId, started, queryClient])

  const start = async (action: BookkeepingAction) => {
    setStarting(true)
    try {
      const id = await startBookkeeping(action, payment.id)
      setStarted({ jobId: id, from: payment.bookkeeping })
      void refreshAfter(queryClient, 'jobs')
    } catch (failure) {
      toast({ tone: 'error', message: p.startFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setStarting(false)
    }
  }

  const view = bookkeepingView({
    bookkeeping: payment.bookkeeping,
    job: state ? { state, lastError: job.data?.lastError } : null,
    startedFrom: started && started.jobId === jobId ? started.from : null,
    starting,
  })

  const button = (action: BookkeepingAction) => (
    <button
      type="button"
      onClick={() => void start(action)}
      className="rounded-md bg-brand-700 px-2.5 py-1.5 text-xs font-semibold whitespace-nowrap text-white shadow-xs hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
    >
      {action === 'contact' ? p.makeContact : p.makeInvoice}
    </button>
  )

  switch (view.kind) {
    case 'action':
      return button(view.action)
    case 'busy':
      return (
        <span role="status" className="inline-flex items-center gap-2 text-slate-600">
          <Icon name="refresh" className="size-4 animate-spin" />
          {p.busy}
        </span>
      )
    case 'done':
      return <Check label={payment.invoiceNumber ? `${p.invoiceMade} (${payment.invoiceNumber})` : p.invoiceMade} />
    case 'notNeeded':
      return <span className="text-slate-500" title={p.notNeeded}>{t.none}</span>
    case 'none':
      return <Cross label={p.noInvoice} />
    case 'failed':
      return (
        <div className="flex flex-col items-start gap-2">
          <span className="inline-flex items-start gap-1.5">
            <Cross label={p.noInvoice} />
            <span role="alert" className="max-w-60 text-xs text-red-700">
              {p.jobFailed(view.error)}
            </span>
          </span>
          {view.action && button(view.action)}
        </div>
      )
  }
}

/** The invoice-details modal: checked in the spec's order first (8 s in the modal), then sent. */
function EditPaymentDialog({ payment, onClose }: { payment: CmsPayment | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [form, setForm] = useState<InvoiceForm>(() => invoiceFormOf(payment ?? {}))
  const [field, setField] = useState<keyof InvoiceForm | null>(null)
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!payment) return
    const problem = firstInvoiceProblem(form)
    if (problem) {
      setField(problem.field)
      error.show(problem.message)
      document.getElementById(`cms-invoice-${problem.field}`)?.focus()
      return
    }
    setField(null)
    error.clear()
    setBusy(true)
    try {
      await editPayment({ id: payment.id, ...form })
      toast({ tone: 'success', message: p.saved })
      onClose()
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) error.show(failure.message)
      else toast({ tone: 'error', message: p.editFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshAfter(queryClient, 'payments')
      setBusy(false)
    }
  }

  return (
    <Modal open={payment !== null} title={p.editTitle} onClose={onClose} busy={busy} wide>
      <p className="mt-1 text-sm text-slate-600">
        {payment?.description} · {payment?.userEmail}
      </p>
      <form noValidate onSubmit={(e) => void submit(e)} className="mt-5 grid grid-cols-1 gap-x-4 gap-y-3 sm:grid-cols-2">
        {invoiceFields.map((name) => (
          <label key={name} htmlFor={`cms-invoice-${name}`} className={`block text-sm font-medium text-slate-700 ${name === 'contactName' ? 'sm:col-span-2' : ''}`}>
            {p.fields[name]}
            <input
              id={`cms-invoice-${name}`}
              type={name === 'phoneNumber' ? 'tel' : 'text'}
              value={form[name]}
              aria-invalid={field === name && error.message ? true : undefined}
              onChange={(e) => setForm((prev) => ({ ...prev, [name]: e.target.value }))}
              className={`mt-1 ${inputClass}`}
            />
          </label>
        ))}
        <div className="sm:col-span-2">
          <ModalError message={error.message} />
        </div>
        <div className="flex flex-row-reverse flex-wrap gap-3 sm:col-span-2">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            {t.save}
          </button>
          <button type="button" onClick={onClose} disabled={busy} className={secondaryButtonClass}>
            {t.close}
          </button>
        </div>
      </form>
    </Modal>
  )
}
