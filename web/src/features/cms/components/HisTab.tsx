import { useState, type FormEvent } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { primaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { addHis, deleteHis, hisEditQuery, hisUsersQuery, refreshAfter, type HisEdit, type HisUser } from '../api'
import { day } from '../format'
import { accessTypeText, HIS_MESSAGE_MS, hisOptionText, isWithoutAccess, shownHis } from '../rules'
import { cmsTexts as t } from '../texts'
import { CmsTable, type Column } from './CmsTable'
import { inputClass, PanelHeading, selectClass, useTimedMessage } from './ui'

const h = t.his

/** The white button with red text that removes the chosen HIS. */
const deleteButtonClass =
  'inline-flex min-h-9 shrink-0 items-center gap-1.5 rounded-md bg-white px-3 py-2 text-sm font-semibold text-red-700 shadow-xs ring-1 ring-red-200 ring-inset hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600'

/**
 * HIS: the list of HIS'en (a dropdown with a delete button, 'Nieuwe HIS..' with an add button) and
 * the users of the chosen one with what gives them access; those without (EXPIRED, NONE) come first
 * and are red, the others green (spec §2.3).
 */
export function HisTab() {
  const queryClient = useQueryClient()
  const toast = useToast()
  const list = useQuery(hisEditQuery())
  const [chosen, setChosen] = useState<string | null>(null)
  const his = shownHis(list.data ?? [], chosen)
  const [confirming, setConfirming] = useState<HisEdit | null>(null)
  const [deleting, setDeleting] = useState(false)
  const deleteError = useTimedMessage(HIS_MESSAGE_MS)
  const [name, setName] = useState('')
  const [adding, setAdding] = useState(false)
  const addError = useTimedMessage(HIS_MESSAGE_MS)

  const remove = async (target: HisEdit) => {
    setDeleting(true)
    deleteError.clear()
    try {
      await deleteHis(target.id)
      toast({ tone: 'success', message: h.deleted(target.name) })
    } catch (failure) {
      // 409: users are linked to it (the spec's red line); anything else says it did not work
      deleteError.show(failure instanceof ApiError && failure.status === 409 ? h.inUse : h.deleteFailed)
    } finally {
      setConfirming(null)
      await refreshAfter(queryClient, 'his')
      setDeleting(false)
    }
  }

  const add = async (event: FormEvent) => {
    event.preventDefault()
    if (name.trim() === '') return addError.show(h.nameMissing)
    addError.clear()
    setAdding(true)
    try {
      const added = await addHis(name.trim())
      setName('')
      setChosen(added.id)
      deleteError.clear()
      toast({ tone: 'success', message: h.added(added.name) })
      await refreshAfter(queryClient, 'his')
    } catch (failure) {
      addError.show(failure instanceof ApiError && (failure.status === 400 || failure.status === 409) ? failure.message : h.addFailed)
    } finally {
      setAdding(false)
    }
  }

  return (
    <section aria-labelledby="cms-his">
      <PanelHeading id="cms-his" title={t.tabs.his}>
        {h.intro}
      </PanelHeading>

      <div className="mt-4 flex flex-wrap items-start gap-x-8 gap-y-2">
        <div className="w-full sm:w-auto">
          <div className="flex items-end gap-2">
            <label className="block min-w-0 flex-1 text-sm font-medium text-slate-700 sm:w-72 sm:flex-none">
              {h.select}
              <select
                value={his?.id ?? ''}
                disabled={!his}
                onChange={(event) => {
                  setChosen(event.target.value)
                  deleteError.clear()
                }}
                aria-describedby="cms-his-delete-error"
                className={`mt-1 ${selectClass} disabled:bg-slate-50 disabled:text-slate-500`}
              >
                {list.isPending && <option value="">{t.loading}</option>}
                {list.isSuccess && !his && <option value="">{h.empty}</option>}
                {(list.data ?? []).map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {hisOptionText(entry)}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              onClick={() => his && setConfirming(his)}
              disabled={!his || deleting}
              aria-label={his ? h.deleteFor(his.name) : h.delete}
              title={h.delete}
              className={deleteButtonClass}
            >
              <Icon name="trash" className="size-4" />
              {/* on a phone the icon alone, so the dropdown keeps its width; the button's name says it */}
              <span className="hidden sm:inline">{h.delete}</span>
            </button>
          </div>
          <div id="cms-his-delete-error" aria-live="assertive" className="mt-1 min-h-5 sm:max-w-[26rem]">
            {deleteError.message && (
              <p role="alert" className="text-sm font-medium text-red-700">
                {deleteError.message}
              </p>
            )}
          </div>
        </div>

        <form noValidate onSubmit={(event) => void add(event)} className="w-full sm:w-auto">
          <div className="flex items-end gap-2">
            <label className="block min-w-0 flex-1 text-sm font-medium text-slate-700 sm:w-64 sm:flex-none">
              {h.newLabel}
              <input
                type="text"
                value={name}
                maxLength={100}
                placeholder={h.newPlaceholder}
                aria-invalid={addError.message ? true : undefined}
                aria-describedby="cms-his-add-error"
                onChange={(event) => setName(event.target.value)}
                className={`mt-1 ${inputClass}`}
              />
            </label>
            <button type="submit" disabled={adding} className={`inline-flex shrink-0 items-center gap-1.5 ${primaryButtonClass}`}>
              <Icon name="plus" className="size-4" />
              {h.add}
            </button>
          </div>
          <div id="cms-his-add-error" aria-live="assertive" className="mt-1 min-h-5 sm:max-w-[22rem]">
            {addError.message && (
              <p role="alert" className="text-sm font-medium text-red-700">
                {addError.message}
              </p>
            )}
          </div>
        </form>
      </div>

      {list.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {t.loadFailed}
        </p>
      )}
      {his && <HisUsers key={his.id} his={his} />}

      <ConfirmDialog
        open={confirming !== null}
        title={h.deleteTitle}
        message={confirming ? h.deleteMessage(confirming.name) : ''}
        confirmLabel={h.deleteConfirm}
        busy={deleting}
        onConfirm={() => confirming && void remove(confirming)}
        onClose={() => setConfirming(null)}
      />
    </section>
  )
}

/** The users of one HIS, a page of 50 at a time; those without access are red. */
function HisUsers({ his }: { his: HisEdit }) {
  const [page, setPage] = useState(0)
  const users = useQuery(hisUsersQuery({ his: his.id, page }))
  const c = h.columns
  const without = (row: HisUser) => isWithoutAccess(row.userSubscriptionInformation.subscriptionType)
  const text = (row: HisUser) => (without(row) ? 'text-red-700' : 'text-slate-700')
  const columns: Column<HisUser>[] = [
    {
      header: c.email,
      fit: 'truncate',
      title: (row) => row.userInfo.email,
      className: (row) => `font-medium ${without(row) ? 'text-red-700' : 'text-slate-900'}`,
      cell: (row) => row.userInfo.email,
    },
    { header: c.linkedToOrganization, className: text, cell: (row) => (row.userSubscriptionInformation.linkedToOrganization ? t.yes : t.no) },
    { header: c.endDate, fit: 'nowrap', className: text, cell: (row) => day(row.userSubscriptionInformation.endDate) },
    {
      header: c.subscriptionType,
      fit: 'nowrap',
      className: (row) => `font-semibold ${without(row) ? 'text-red-700' : 'text-emerald-700'}`,
      cell: (row) => accessTypeText(row.userSubscriptionInformation.subscriptionType),
    },
  ]
  return (
    <div className="mt-4">
      <h3 className="text-base font-semibold text-slate-900">{h.usersOf(his.name)}</h3>
      <CmsTable
        label={h.usersOf(his.name)}
        columns={columns}
        rowKey={(row) => row.userInfo.id}
        query={users}
        list={{ page, setPage }}
        rowClassName={(row) => (without(row) ? 'bg-red-50/70' : undefined)}
      />
    </div>
  )
}
