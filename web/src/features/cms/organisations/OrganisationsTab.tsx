import { useState, type KeyboardEvent } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { Cell, CmsTable, rowClass, usePagedFilter, type Column } from '../components/CmsTable'
import { ActiveBadge, inputClass, PanelHeading, useTimedMessage } from '../components/ui'
import { MODAL_MESSAGE_MS } from '../rules'
import { deleteOrganisation, organisationsQuery, refreshOrganisations, saveOrganisation, type ActiveFilter, type MainOrganisation } from './api'
import { DurationDialog, type DurationTarget } from './DurationDialog'
import { DateInput, FormError, ProductSelect, TypeSelect } from './fields'
import {
  editedMainInput,
  editMainProblem,
  emptyMainForm,
  mainTermText,
  newMainInput,
  newMainProblem,
  productLabel,
  typeLabel,
  type MainForm,
} from './rules'
import { SubOrganisationsDialog } from './SubOrganisationsDialog'
import { organisationTexts as t } from './texts'

const o = t.main
const COLUMNS = 7
const filters: readonly ActiveFilter[] = ['ALL', 'ACTIVE', 'INACTIVE']

/** A red text button for a delete action in a row. */
const dangerIconButtonClass = `${iconButtonClass} text-red-700 hover:bg-red-50 hover:text-red-800`

type Dialog = { kind: 'subs' | 'delete'; main: MainOrganisation } | null

/**
 * Organisaties ('Hoofdorganisaties', spec §2.3): the main organisations filtered by Alle/Actieve/
 * Inactieve and a search, an add row, inline row edit, delete after a question; per row the
 * sub-organisations modal (with their users, HIS and terms) and the main organisation's Looptijd.
 */
export function OrganisationsTab() {
  const list = usePagedFilter<{ filter: ActiveFilter }>({ filter: 'ALL' })
  const organisations = useQuery(organisationsQuery({ page: list.page, search: list.search, filter: list.filters.filter }))
  const queryClient = useQueryClient()
  const toast = useToast()
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<string | null>(null)
  const [dialog, setDialog] = useState<Dialog>(null)
  const [term, setTerm] = useState<DurationTarget | null>(null)
  const [deleting, setDeleting] = useState(false)
  const c = o.columns
  // the modal shows the organisation as last read (its term may change while it is open)
  const shown = dialog && (organisations.data?.rows.find((row) => row.id === dialog.main.id) ?? dialog.main)

  const remove = async (main: MainOrganisation) => {
    setDeleting(true)
    try {
      await deleteOrganisation(main.id)
      setDialog(null)
      toast({ tone: 'success', message: o.deleted(main.organizationName) })
    } catch (failure) {
      setDialog(null)
      toast({ tone: 'error', message: o.deleteFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setDeleting(false)
    }
  }

  const columns: Column<MainOrganisation>[] = [
    {
      header: c.name,
      cell: (main) => (
        <>
          <p className="font-medium break-words text-slate-900">{main.organizationName}</p>
          <button
            type="button"
            onClick={() => setDialog({ kind: 'subs', main })}
            className="mt-1 -ml-1 inline-flex items-center gap-1 rounded px-1 text-sm font-medium whitespace-nowrap text-brand-700 hover:text-brand-800 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <Icon name="user" className="size-4" />
            {o.subsButton(main.subOrganizations)}
          </button>
        </>
      ),
    },
    { header: c.agbCode, fit: 'nowrap', cell: (main) => main.agbCode },
    { header: c.type, cell: (main) => typeLabel(main.type) },
    { header: c.product, cell: (main) => productLabel(main.productType) },
    {
      header: c.term,
      cell: (main) => (
        <span className="inline-flex flex-wrap items-center gap-1">
          {mainTermText(main)}
          <button
            type="button"
            onClick={() =>
              setTerm({
                kind: 'main',
                id: main.id,
                name: main.organizationName,
                startDate: main.validDateMainLevel ? (main.startDate ?? null) : null,
                endDate: main.validDateMainLevel ? main.validUntil : null,
              })
            }
            aria-label={o.termFor(main.organizationName)}
            title={o.termButton}
            className={iconButtonClass}
          >
            <Icon name="pencil" className="size-4" />
          </button>
        </span>
      ),
    },
    { header: c.active, cell: (main) => <ActiveBadge active={main.isActive} /> },
    {
      header: c.actions,
      hideHeader: true,
      align: 'right',
      cell: (main) => (
        <div className="-mx-2 flex flex-wrap gap-1 md:justify-end">
          <button type="button" onClick={() => setEditing(main.id)} aria-label={o.editFor(main.organizationName)} className={iconButtonClass}>
            <Icon name="pencil" className="size-4" />
            {o.edit}
          </button>
          <button type="button" onClick={() => setDialog({ kind: 'delete', main })} aria-label={o.deleteFor(main.organizationName)} className={dangerIconButtonClass}>
            <Icon name="trash" className="size-4" />
            {o.delete}
          </button>
        </div>
      ),
    },
  ]

  return (
    <section aria-labelledby="cms-organisaties">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl">
          <PanelHeading id="cms-organisaties" title={o.heading}>
            {o.intro}
          </PanelHeading>
        </div>
        {!adding && (
          <button type="button" onClick={() => setAdding(true)} className={`inline-flex items-center gap-1.5 ${primaryButtonClass}`}>
            <Icon name="plus" className="size-4" />
            {o.add}
          </button>
        )}
      </div>

      <CmsTable
        label={o.heading}
        columns={columns}
        rowKey={(main) => main.id}
        query={organisations}
        list={list}
        searchPlaceholder={o.searchPlaceholder}
        filters={
          <fieldset>
            <legend className="sr-only">{o.filterLabel}</legend>
            <div className="inline-flex rounded-md shadow-xs">
              {filters.map((filter, index) => (
                <label
                  key={filter}
                  className={`relative cursor-pointer px-3 py-2 text-sm font-semibold ring-1 ring-slate-300 ring-inset has-checked:z-10 has-checked:bg-brand-700 has-checked:text-white has-checked:ring-brand-700 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-700 ${
                    index === 0 ? 'rounded-l-md' : '-ml-px'
                  } ${index === filters.length - 1 ? 'rounded-r-md' : ''} bg-white text-slate-700 hover:bg-slate-50`}
                >
                  <input
                    type="radio"
                    name="cms-organisations-filter"
                    value={filter}
                    checked={list.filters.filter === filter}
                    onChange={() => list.setFilter('filter', filter)}
                    className="sr-only"
                  />
                  {o.filters[filter]}
                </label>
              ))}
            </div>
          </fieldset>
        }
        leading={adding && <AddRow onDone={() => setAdding(false)} />}
        renderRow={(main) => (editing === main.id ? <EditRow key={main.id} main={main} onDone={() => setEditing(null)} /> : undefined)}
      />

      <SubOrganisationsDialog main={dialog?.kind === 'subs' ? shown : null} onClose={() => setDialog(null)} />
      <DurationDialog key={term ? `${term.kind}-${term.id}` : 'none'} target={term} onClose={() => setTerm(null)} />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={o.deleteTitle}
        message={dialog ? o.deleteMessage(dialog.main.organizationName) : ''}
        confirmLabel={o.deleteConfirm}
        busy={deleting}
        onConfirm={() => dialog && void remove(dialog.main)}
        onClose={() => setDialog(null)}
      />
    </section>
  )
}

/** Enter in a field of a row saves it, Escape leaves it (a table row cannot hold a form). */
function keys(save: () => void, cancel: () => void) {
  return (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type === 'text') {
      event.preventDefault()
      save()
    } else if (event.key === 'Escape') {
      cancel()
    }
  }
}

/** The cells of a text field in a row: its name for assistive technology, the column says it too. */
function CellInput({ label, value, onChange, autoFocus = false }: { label: string; value: string; onChange: (value: string) => void; autoFocus?: boolean }) {
  return (
    <input
      type="text"
      aria-label={label}
      value={value}
      maxLength={200}
      // the row opens on a click of its button: the name is typed next
      autoFocus={autoFocus}
      onChange={(event) => onChange(event.target.value)}
      className={inputClass}
    />
  )
}

/** The add row: name, AGB code, type, product and, with 'Looptijd op hoofdniveau', the term. */
function AddRow({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [form, setForm] = useState<MainForm>(emptyMainForm)
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)
  const set = <K extends keyof MainForm>(name: K, value: MainForm[K]) => setForm((prev) => ({ ...prev, [name]: value }))
  const f = o.fields
  const c = o.columns

  const submit = async () => {
    const problem = newMainProblem(form)
    if (problem) return error.show(problem)
    error.clear()
    setBusy(true)
    try {
      const added = await saveOrganisation(newMainInput(form))
      toast({ tone: 'success', message: o.added(added.organizationName) })
      await refreshOrganisations(queryClient)
      onDone()
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) error.show(failure.message)
      else toast({ tone: 'error', message: o.saveFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <tr aria-label={o.addRow} onKeyDown={keys(() => void submit(), onDone)} className={`${rowClass} bg-brand-50/40`}>
        <Cell label={c.name} className="md:min-w-44">
          <CellInput label={f.name} value={form.organizationName} onChange={(v) => set('organizationName', v)} autoFocus />
        </Cell>
        <Cell label={c.agbCode} className="md:min-w-28">
          <CellInput label={f.agbCode} value={form.agbCode} onChange={(v) => set('agbCode', v)} />
        </Cell>
        <Cell label={c.type} className="md:min-w-48">
          <TypeSelect aria-label={f.type} value={form.type} onChange={(v) => set('type', v)} />
        </Cell>
        <Cell label={c.product} className="md:min-w-48">
          <ProductSelect aria-label={f.product} value={form.productType} onChange={(v) => set('productType', v)} />
        </Cell>
        <Cell label={c.term} className="md:min-w-44">
          <label className="flex items-start gap-2 pt-2 text-sm font-medium text-slate-700">
            <input
              type="checkbox"
              checked={form.validDateMainLevel}
              onChange={(event) => set('validDateMainLevel', event.target.checked)}
              className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-brand-700 focus:ring-brand-700"
            />
            {o.mainLevel}
          </label>
          {form.validDateMainLevel && (
            <div className="mt-2 space-y-2">
              <DateInput label={f.start} value={form.startDate} onChange={(v) => set('startDate', v)} />
              <DateInput label={f.end} value={form.validUntil} onChange={(v) => set('validUntil', v)} />
            </div>
          )}
        </Cell>
        <Cell colSpan={2} className="md:text-right">
          <div className="ml-auto flex w-28 flex-col gap-2">
            <button type="button" onClick={() => void submit()} disabled={busy} className={primaryButtonClass}>
              {o.addSubmit}
            </button>
            <button type="button" onClick={onDone} disabled={busy} className={secondaryButtonClass}>
              {o.cancel}
            </button>
          </div>
        </Cell>
      </tr>
      {error.message && (
        <tr className={`${rowClass} bg-brand-50/40`}>
          <Cell colSpan={COLUMNS} className="md:pt-0">
            <FormError message={error.message} />
          </Cell>
        </tr>
      )}
    </>
  )
}

/** The inline edit of a row: name, AGB code, type and product; the term has its own modal. */
function EditRow({ main, onDone }: { main: MainOrganisation; onDone: () => void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [form, setForm] = useState({
    organizationName: main.organizationName,
    agbCode: main.agbCode,
    type: main.type,
    productType: main.productType ?? '',
  })
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)
  const set = (name: keyof typeof form, value: string) => setForm((prev) => ({ ...prev, [name]: value }))
  const f = o.fields
  const c = o.columns

  const save = async () => {
    const problem = editMainProblem(form)
    if (problem) return error.show(problem)
    error.clear()
    setBusy(true)
    try {
      const saved = await saveOrganisation(editedMainInput(main, form))
      toast({ tone: 'success', message: o.saved(saved.organizationName) })
      await refreshOrganisations(queryClient)
      onDone()
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) error.show(failure.message)
      else toast({ tone: 'error', message: o.saveFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <tr aria-label={o.editFor(main.organizationName)} onKeyDown={keys(() => void save(), onDone)} className={`${rowClass} bg-slate-50/70`}>
        <Cell label={c.name} className="md:min-w-44">
          <CellInput label={f.name} value={form.organizationName} onChange={(v) => set('organizationName', v)} autoFocus />
        </Cell>
        <Cell label={c.agbCode} className="md:min-w-28">
          <CellInput label={f.agbCode} value={form.agbCode} onChange={(v) => set('agbCode', v)} />
        </Cell>
        <Cell label={c.type} className="md:min-w-48">
          <TypeSelect aria-label={f.type} value={form.type} onChange={(v) => set('type', v)} />
        </Cell>
        <Cell label={c.product} className="md:min-w-48">
          <ProductSelect aria-label={f.product} value={form.productType} onChange={(v) => set('productType', v)} />
        </Cell>
        <Cell label={c.term} className="md:pt-5">
          {mainTermText(main)}
        </Cell>
        <Cell label={c.active} className="md:pt-5">
          <ActiveBadge active={main.isActive} />
        </Cell>
        <Cell className="md:text-right">
          <div className="ml-auto flex w-28 flex-col gap-2">
            <button type="button" onClick={() => void save()} disabled={busy} className={primaryButtonClass}>
              {o.save}
            </button>
            <button type="button" onClick={onDone} disabled={busy} className={secondaryButtonClass}>
              {o.cancel}
            </button>
          </div>
        </Cell>
      </tr>
      {error.message && (
        <tr className={`${rowClass} bg-slate-50/70`}>
          <Cell colSpan={COLUMNS} className="md:pt-0">
            <FormError message={error.message} />
          </Cell>
        </tr>
      )}
    </>
  )
}
