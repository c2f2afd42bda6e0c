import {
  Dialog,
  DialogBackdrop,
  DialogPanel,
  DialogTitle,
  Field,
  Label,
  Tab,
  TabGroup,
  TabList,
  TabPanel,
  TabPanels,
  Textarea,
} from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type ReactNode } from 'react'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { stackedTable } from '@/features/layout'
import { personalizedSoapQueryOptions, useDeleteSoapExample, useSaveSoapExample, type PersonalizedSoap } from './api'
import {
  emptySoapForm,
  formFromExample,
  isEmptyExample,
  saveFailure,
  soapBody,
  soapParts,
  type SaveFailure,
  type SoapForm,
  type SoapPart,
} from './example'
import { MODAL_MESSAGE_MS, personalizeTexts as t } from './texts'

const partNames: Record<SoapPart, string> = {
  subjective: t.subjective,
  objective: t.objective,
  evaluation: t.evaluation,
  plan: t.plan,
}

const thClass = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase first:pl-6 last:pr-6'
const tdClass = 'px-4 py-4 align-top text-sm text-slate-700 first:pl-6 last:pr-6'

/** The modal that is open: adding, or editing one example. */
type Editing = { mode: 'add' } | { mode: 'edit'; example: PersonalizedSoap }

/** /personalize: one tab, SOEP, with the user's examples. */
export function PersonalizePage() {
  const [editing, setEditing] = useState<Editing | null>(null)
  return (
    <div>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.heading}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>
      <TabGroup className="mt-8">
        <TabList className="flex gap-6 border-b border-slate-200">
          <Tab className="-mb-px border-b-2 border-transparent px-1 pb-3 text-sm font-semibold text-slate-500 hover:text-slate-700 focus:outline-none data-focus:text-brand-700 data-selected:border-brand-700 data-selected:text-brand-700">
            {t.tabSoap}
          </Tab>
        </TabList>
        <TabPanels className="mt-6">
          <TabPanel>
            <div className="flex justify-end">
              <button type="button" onClick={() => setEditing({ mode: 'add' })} className={`${primaryButtonClass} inline-flex items-center gap-2`}>
                <Icon name="plus" className="size-4" />
                {t.newExample}
              </button>
            </div>
            <SoapTable onEdit={(example) => setEditing({ mode: 'edit', example })} onAdd={() => setEditing({ mode: 'add' })} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
      {editing && (
        <SoapModal
          key={editing.mode === 'edit' ? editing.example.id : 'add'}
          editing={editing}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  )
}

function SoapTable({ onEdit, onAdd }: { onEdit: (example: PersonalizedSoap) => void; onAdd: () => void }) {
  const examples = useQuery(personalizedSoapQueryOptions())
  const remove = useDeleteSoapExample()
  const toast = useToast()
  const [removing, setRemoving] = useState<PersonalizedSoap | null>(null)

  let body
  if (examples.isPending) {
    body = (
      <MessageRow>
        <span role="status">{t.loading}</span>
      </MessageRow>
    )
  } else if (examples.isError) {
    body = (
      <MessageRow>
        <span role="alert">
          {t.loadFailed}{' '}
          <button type="button" onClick={() => void examples.refetch()} className="font-semibold text-brand-700 underline hover:text-brand-900">
            {t.retry}
          </button>
        </span>
      </MessageRow>
    )
  } else if (examples.data.length === 0) {
    body = (
      <MessageRow>
        <Icon name="document" className="mx-auto size-10 text-slate-300" />
        <p className="mt-3 font-semibold text-slate-900">{t.emptyTitle}</p>
        <p className="mx-auto mt-1 max-w-md">{t.emptyText}</p>
        <button type="button" onClick={onAdd} className={`${secondaryButtonClass} mt-4`}>
          {t.newExample}
        </button>
      </MessageRow>
    )
  } else {
    body = examples.data.map((example, index) => (
      <tr key={example.id} className={stackedTable.row}>
        {soapParts.map((part) => (
          <td key={part} className={`${tdClass} ${stackedTable.cell}`} data-label={partNames[part]}>
            <p className="line-clamp-3 whitespace-pre-line wrap-anywhere">{example[part]}</p>
          </td>
        ))}
        <td className={`${tdClass} whitespace-nowrap text-right ${stackedTable.actions}`}>
          <button type="button" onClick={() => onEdit(example)} className={iconButtonClass} aria-label={t.editLabel(index + 1)}>
            <Icon name="pencil" className="size-4" />
            <span aria-hidden="true">{t.edit}</span>
          </button>
          <button type="button" onClick={() => setRemoving(example)} className={iconButtonClass} aria-label={t.deleteLabel(index + 1)}>
            <Icon name="trash" className="size-4" />
            <span aria-hidden="true">{t.delete}</span>
          </button>
        </td>
      </tr>
    ))
  }

  return (
    <>
      <div className="mt-4 overflow-x-auto rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
        <table className={`w-full table-fixed divide-y divide-slate-200 ${stackedTable.table}`}>
          <thead className={`bg-slate-50 ${stackedTable.head}`}>
            <tr>
              {soapParts.map((part) => (
                <th key={part} scope="col" className={thClass}>
                  {partNames[part]}
                </th>
              ))}
              <th scope="col" className={`${thClass} w-64`}>
                <span className="sr-only">{t.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody className={`divide-y divide-slate-100 ${stackedTable.body}`}>{body}</tbody>
        </table>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t.confirmTitle}
        message={t.confirmMessage}
        confirmLabel={t.confirmButton}
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return
          remove.mutate(removing.id, {
            onSuccess: () => toast({ tone: 'success', message: t.deleted }),
            onError: () => toast({ tone: 'error', message: t.deleteFailed }),
            onSettled: () => setRemoving(null),
          })
        }}
      />
    </>
  )
}

function MessageRow({ children }: { children: ReactNode }) {
  return (
    <tr>
      <td colSpan={soapParts.length + 1} className="px-6 py-10 text-center text-sm text-slate-500">
        {children}
      </td>
    </tr>
  )
}

/** Adding or editing an example; on a failure the modal stays open with everything typed. */
function SoapModal({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const isEdit = editing.mode === 'edit'
  const [form, setForm] = useState<SoapForm>(isEdit ? formFromExample(editing.example) : emptySoapForm)
  const [failure, setFailure] = useState<SaveFailure | null>(null)
  const save = useSaveSoapExample()

  // The message clears itself (8 seconds in modals).
  useEffect(() => {
    if (!failure) return
    const timer = setTimeout(() => setFailure(null), MODAL_MESSAGE_MS)
    return () => clearTimeout(timer)
  }, [failure])

  const submit = () => {
    if (isEmptyExample(form)) {
      setFailure({ message: t.emptyExample })
      return
    }
    setFailure(null)
    save.mutate(soapBody(form, isEdit ? editing.example.id : undefined), {
      onSuccess: () => onClose(),
      onError: (error) => setFailure(saveFailure(error, isEdit)),
    })
  }

  return (
    <Dialog open onClose={() => !save.isPending && onClose()} className="fixed inset-0 z-40">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40" />
      <div className="fixed inset-0 z-40 flex min-h-full items-end justify-center overflow-y-auto p-4 sm:items-center">
        <DialogPanel className="w-full max-w-2xl rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">{isEdit ? t.editTitle : t.addTitle}</DialogTitle>
          <form
            noValidate
            className="mt-4 space-y-4"
            onSubmit={(event) => {
              event.preventDefault()
              submit()
            }}
          >
            {soapParts.map((part) => (
              <Field key={part}>
                <Label className="block text-sm font-medium text-slate-900">{partNames[part]}</Label>
                <Textarea
                  value={form[part]}
                  onChange={(event) => {
                    const value = event.target.value
                    setForm((current) => ({ ...current, [part]: value }))
                  }}
                  rows={3}
                  className="mt-2 block max-h-[300px] min-h-[50px] w-full resize-y rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
                />
              </Field>
            ))}
            {failure && (
              <div role="alert" className="flex gap-3 rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
                <Icon name="xCircle" className="size-5 shrink-0 text-red-500" />
                <div>
                  <p className="font-semibold">{failure.message}</p>
                  {failure.detail && <p className="mt-1">{failure.detail}</p>}
                </div>
              </div>
            )}
            <div className="flex flex-row-reverse flex-wrap gap-3 pt-2">
              <button type="submit" disabled={save.isPending} className={`${primaryButtonClass} disabled:opacity-60`}>
                {save.isPending ? t.saving : t.save}
              </button>
              <button type="button" onClick={onClose} disabled={save.isPending} className={secondaryButtonClass}>
                {t.cancel}
              </button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
