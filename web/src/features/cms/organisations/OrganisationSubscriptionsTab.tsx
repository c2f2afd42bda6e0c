import { useState } from 'react'
import { Switch } from '@headlessui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { iconButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { CmsTable, type Column } from '../components/CmsTable'
import { DateDialog, dateFailure } from '../components/DateDialog'
import { ActiveBadge, PanelHeading, switchClass, switchKnobClass, Toggle } from '../components/ui'
import { validUntilProblem } from '../rules'
import { cmsTexts } from '../texts'
import {
  deleteOrganisationSubscription,
  organisationProblemsQuery,
  organisationSubscriptionsQuery,
  refreshOrganisations,
  setOrganisationSubscriptionActive,
  setOrganisationSubscriptionValidUntil,
  syncOrganisations,
  type CmsOrganisationSubscription,
  type OrganisationProblem,
} from './api'
import { termText } from './rules'
import { organisationTexts as t } from './texts'

const s = t.subscriptions
const emailOf = (row: CmsOrganisationSubscription) => row.userEmail ?? cmsTexts.none
const subOf = (row: CmsOrganisationSubscription) => row.subOrganizationName ?? cmsTexts.none

/**
 * Organisatie abonnementen ('Abonnementen via organisatie', spec §2.3): every organisation
 * subscription in the api's order, optionally the active ones only, each with a switch for
 * Actief and a modal for its own Geldig tot (empty: it follows its organisation's term again);
 * with 'Verwijder dubbele abonnementen' a delete column for duplicates; the two warning lists;
 * and 'Synchroniseren'.
 */
export function OrganisationSubscriptionsTab() {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [filter, setFilter] = useState({ activeOnly: false, page: 0 })
  const [duplicates, setDuplicates] = useState(false)
  const subscriptions = useQuery(organisationSubscriptionsQuery(filter))
  const waiting = useQuery(organisationProblemsQuery('email'))
  const unlinked = useQuery(organisationProblemsQuery('linked'))
  const [confirming, setConfirming] = useState<CmsOrganisationSubscription | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [syncing, setSyncing] = useState(false)
  const [switching, setSwitching] = useState<string | null>(null)
  const [editing, setEditing] = useState<CmsOrganisationSubscription | null>(null)
  const c = s.columns
  const columns: Column<CmsOrganisationSubscription>[] = [
    { header: c.organisation, className: 'font-medium text-slate-900', cell: (row) => row.organizationName },
    { header: c.email, fit: 'truncate', title: (row) => row.userEmail ?? undefined, cell: emailOf },
    { header: c.sub, cell: subOf },
    {
      header: c.term,
      cell: (row) => (
        <span className="inline-flex flex-wrap items-center gap-x-1">
          {termText(row.startDate, row.validUntil)}
          {row.ownValidUntil && <span className="text-xs text-slate-500">({s.ownValidUntil})</span>}
          <button type="button" onClick={() => setEditing(row)} aria-label={s.validUntilFor(emailOf(row), subOf(row))} title={s.validUntilTitle} className={iconButtonClass}>
            <Icon name="pencil" className="size-4" />
          </button>
        </span>
      ),
    },
    {
      header: c.active,
      cell: (row) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          <Switch
            checked={row.active}
            disabled={switching === row.id}
            onChange={(active) => void toggleActive(row, active)}
            aria-label={s.toggleActive(emailOf(row), subOf(row))}
            className={switchClass}
          >
            <span aria-hidden="true" className={switchKnobClass} />
          </Switch>
          <ActiveBadge active={row.active} />
          {row.switchedOff && <span className="text-xs text-slate-500">({s.switchedOff})</span>}
        </span>
      ),
    },
  ]
  if (duplicates)
    columns.push({
      header: c.delete,
      hideHeader: true,
      fit: 'nowrap',
      align: 'right',
      cell: (row) => (
        <button
          type="button"
          onClick={() => setConfirming(row)}
          aria-label={s.deleteFor(emailOf(row), subOf(row))}
          className={`-mx-2 ${iconButtonClass} text-red-700 hover:bg-red-50 hover:text-red-800`}
        >
          <Icon name="trash" className="size-4" />
          {s.delete}
        </button>
      ),
    })

  const toggleActive = async (subscription: CmsOrganisationSubscription, active: boolean) => {
    setSwitching(subscription.id)
    try {
      const changed = await setOrganisationSubscriptionActive(subscription.id, active)
      if (active && !changed.active) toast({ tone: 'warning', message: s.stillInactive })
    } catch (failure) {
      toast({ tone: 'error', message: cmsTexts.subscriptions.updateFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setSwitching(null)
    }
  }

  const saveValidUntil = async (subscription: CmsOrganisationSubscription, value: string) => {
    try {
      await setOrganisationSubscriptionValidUntil(subscription.id, value)
      return true
    } catch (failure) {
      toast(dateFailure(failure, null))
      return false
    } finally {
      await refreshOrganisations(queryClient)
    }
  }

  const remove = async (subscription: CmsOrganisationSubscription) => {
    setDeleting(true)
    try {
      await deleteOrganisationSubscription(subscription.id)
      setConfirming(null)
      toast({ tone: 'success', message: s.deleted })
    } catch (failure) {
      setConfirming(null)
      // 409: not a duplicate; the spec's warning, for 10 seconds
      if (failure instanceof ApiError && failure.status === 409) toast({ tone: 'warning', message: failure.message })
      else toast({ tone: 'error', message: s.deleteFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setDeleting(false)
    }
  }

  const sync = async () => {
    setSyncing(true)
    try {
      const synced = await syncOrganisations()
      toast({ tone: 'success', message: s.synced(synced.linked, synced.subscriptionsChanged) })
    } catch (failure) {
      toast({ tone: 'error', message: s.syncFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setSyncing(false)
    }
  }

  return (
    <section aria-labelledby="cms-organisatie-abonnementen">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl">
          <PanelHeading id="cms-organisatie-abonnementen" title={s.heading}>
            {s.intro}
          </PanelHeading>
        </div>
        <div className="flex max-w-xs flex-col items-start gap-1 sm:items-end">
          <button type="button" onClick={() => void sync()} disabled={syncing} aria-describedby="cms-sync-help" className={`inline-flex items-center gap-1.5 ${secondaryButtonClass}`}>
            <Icon name="refresh" className={`size-4 ${syncing ? 'animate-spin' : ''}`} />
            {s.sync}
          </button>
          <p id="cms-sync-help" className="text-xs text-slate-500 sm:text-right">
            {s.syncHelp}
          </p>
        </div>
      </div>

      <ProblemList title={s.problemsEmail} problems={waiting.data} />
      <ProblemList title={s.problemsLinked} problems={unlinked.data} />

      <CmsTable
        label={s.heading}
        columns={columns}
        rowKey={(row) => row.id}
        query={subscriptions}
        list={{ page: filter.page, setPage: (page) => setFilter((prev) => ({ ...prev, page })) }}
        filters={
          <>
            <Toggle label={s.activeOnly} checked={filter.activeOnly} onChange={(activeOnly) => setFilter({ activeOnly, page: 0 })} />
            <Toggle label={s.duplicates} checked={duplicates} onChange={setDuplicates} />
          </>
        }
      />

      <DateDialog
        key={editing?.id ?? 'none'}
        open={editing !== null}
        title={s.validUntilTitle}
        about={editing ? `${editing.organizationName} · ${emailOf(editing)} · ${subOf(editing)}` : ''}
        label={s.validUntilLabel}
        help={s.validUntilHelp}
        initial={editing?.ownValidUntil ?? ''}
        problem={(value) => (value.trim() === '' ? null : validUntilProblem(value))}
        onSave={(value) => (editing ? saveValidUntil(editing, value) : Promise.resolve(false))}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={s.deleteTitle}
        message={confirming ? s.deleteMessage(emailOf(confirming), subOf(confirming)) : ''}
        confirmLabel={s.deleteConfirm}
        busy={deleting}
        onConfirm={() => confirming && void remove(confirming)}
        onClose={() => setConfirming(null)}
      />
    </section>
  )
}

/** A warning list (shown only when it holds someone), ending with 'Neem contact op met het ontwikkelteam'. */
function ProblemList({ title, problems }: { title: string; problems: OrganisationProblem[] | undefined }) {
  if (!problems || problems.length === 0) return null
  return (
    <div role="alert" className="mt-4 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
      <p className="flex items-start gap-2 font-semibold">
        <Icon name="warning" className="size-5 shrink-0 text-amber-500" />
        {title}
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-6">
        {problems.map((p) => (
          <li key={`${p.email}-${p.subOrganizationId}`} className="break-words">
            {s.problem(p.email, p.subOrganizationName)}
          </li>
        ))}
      </ul>
      <p className="mt-2 font-semibold">{s.contactDevelopers}</p>
    </div>
  )
}
