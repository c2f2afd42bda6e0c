import { useState } from 'react'
import { Switch } from '@headlessui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { iconButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import {
  cancelSubscription,
  refreshAfter,
  renewSubscription,
  setSubscriptionActive,
  setSubscriptionValidUntil,
  subscriptionProblemsQuery,
  subscriptionsQuery,
  type CmsSubscription,
} from '../api'
import { day, term } from '../format'
import { renewDateProblem, validUntilProblem } from '../rules'
import { cmsTexts as t } from '../texts'
import { CmsTable, usePagedFilter, type Column } from './CmsTable'
import { DateDialog, dateFailure } from './DateDialog'
import { PanelHeading, Toggle, switchClass, switchKnobClass } from './ui'

const s = t.subscriptions

type Dialog = { kind: 'validUntil' | 'renew' | 'cancel'; subscription: CmsSubscription } | null

/** Gebruikers abonnementen: every user subscription, with active, valid-until, renew and cancel. */
export function SubscriptionsTab() {
  const list = usePagedFilter({ paidOnly: false, activeOnly: false })
  const subscriptions = useQuery(subscriptionsQuery({ page: list.page, search: list.search, ...list.filters }))
  const problems = useQuery(subscriptionProblemsQuery())
  const queryClient = useQueryClient()
  const toast = useToast()
  const [dialog, setDialog] = useState<Dialog>(null)
  const [switching, setSwitching] = useState<string | null>(null)
  const [cancelling, setCancelling] = useState(false)
  const c = s.columns

  const toggleActive = async (subscription: CmsSubscription, active: boolean) => {
    setSwitching(subscription.id)
    try {
      const changed = await setSubscriptionActive(subscription.id, active)
      if (active && !changed.isActive) toast({ tone: 'warning', message: s.stillInactive })
    } catch (failure) {
      toast({ tone: 'error', message: s.updateFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshAfter(queryClient, 'subscriptions')
      setSwitching(null)
    }
  }

  const cancel = async (subscription: CmsSubscription) => {
    setCancelling(true)
    try {
      await cancelSubscription(subscription.id)
      setDialog(null)
    } catch (failure) {
      setDialog(null)
      toast({ tone: 'error', message: s.updateFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshAfter(queryClient, 'subscriptions')
      setCancelling(false)
    }
  }

  const columns: Column<CmsSubscription>[] = [
    {
      header: c.description,
      cell: (sub) => (
        <>
          <p className="font-medium text-slate-900">
            {sub.description}
            {sub.isTrial && <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600">{s.trial}</span>}
          </p>
          <p className="break-all text-slate-500">{sub.userEmail}</p>
        </>
      ),
    },
    { header: c.term, cell: (sub) => term(sub.createdAt, sub.validUntil) },
    { header: c.canceledAt, fit: 'nowrap', cell: (sub) => day(sub.canceledAt) },
    {
      header: c.active,
      cell: (sub) => (
        <Switch
          checked={sub.isActive}
          disabled={switching === sub.id}
          onChange={(active) => void toggleActive(sub, active)}
          aria-label={s.toggleActive(sub.description, sub.userEmail)}
          className={switchClass}
        >
          <span aria-hidden="true" className={switchKnobClass} />
        </Switch>
      ),
    },
    {
      header: c.actions,
      hideHeader: true,
      align: 'right',
      cell: (sub) => (
        <div className="-mx-2 flex flex-wrap gap-1 md:justify-end">
          <button type="button" onClick={() => setDialog({ kind: 'validUntil', subscription: sub })} className={iconButtonClass}>
            <Icon name="pencil" className="size-4" />
            {s.changeValidUntil}
          </button>
          {sub.canRenew && sub.firstPaymentId && (
            <button type="button" onClick={() => setDialog({ kind: 'renew', subscription: sub })} className={iconButtonClass}>
              <Icon name="refresh" className="size-4" />
              {s.renew}
            </button>
          )}
          {!sub.canceledAt && sub.isActive && (
            <button type="button" onClick={() => setDialog({ kind: 'cancel', subscription: sub })} className={`${iconButtonClass} text-red-700 hover:text-red-800`}>
              <Icon name="xCircle" className="size-4" />
              {s.cancel}
            </button>
          )}
        </div>
      ),
    },
  ]

  return (
    <section aria-labelledby="cms-abonnementen">
      <PanelHeading id="cms-abonnementen" title={t.tabs.abonnementen} />

      {problems.data && problems.data.length > 0 && (
        <div role="alert" className="mt-4 rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          <p className="flex items-center gap-2 font-semibold">
            <Icon name="warning" className="size-5 shrink-0 text-amber-500" />
            {s.problemsTitle}
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6">
            {problems.data.map((p) => (
              <li key={p.subscriptionId}>
                {s.problem(p.description, p.userEmail)} <span className="text-amber-800">({s.problemSince(day(p.detectedAt))})</span>
              </li>
            ))}
          </ul>
          <p className="mt-2 font-semibold">{s.contactDevelopers}</p>
        </div>
      )}

      <CmsTable
        label={t.tabs.abonnementen}
        columns={columns}
        rowKey={(sub) => sub.id}
        query={subscriptions}
        list={list}
        searchPlaceholder={s.searchPlaceholder}
        filters={
          <>
            <Toggle label={s.paidOnly} checked={list.filters.paidOnly} onChange={(v) => list.setFilter('paidOnly', v)} />
            <Toggle label={s.activeOnly} checked={list.filters.activeOnly} onChange={(v) => list.setFilter('activeOnly', v)} />
          </>
        }
      />

      <SubscriptionDateDialog
        key={dialog?.kind === 'validUntil' ? `v-${dialog.subscription.id}` : 'v'}
        mode="validUntil"
        subscription={dialog?.kind === 'validUntil' ? dialog.subscription : null}
        onClose={() => setDialog(null)}
      />
      <SubscriptionDateDialog
        key={dialog?.kind === 'renew' ? `r-${dialog.subscription.id}` : 'r'}
        mode="renew"
        subscription={dialog?.kind === 'renew' ? dialog.subscription : null}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'cancel'}
        title={s.cancelTitle}
        message={dialog ? s.cancelMessage(dialog.subscription.description, dialog.subscription.userEmail, day(dialog.subscription.validUntil)) : ''}
        confirmLabel={s.cancelConfirm}
        busy={cancelling}
        onConfirm={() => dialog && void cancel(dialog.subscription)}
        onClose={() => setDialog(null)}
      />
    </section>
  )
}

/**
 * The valid-until modal and the renew modal: one date, checked for its format before it is sent
 * (the renew one first asks for a date).
 */
function SubscriptionDateDialog({
  mode,
  subscription,
  onClose,
}: {
  mode: 'validUntil' | 'renew'
  subscription: CmsSubscription | null
  onClose: () => void
}) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const renew = mode === 'renew'

  const save = async (value: string) => {
    if (!subscription) return false
    try {
      if (renew) {
        await renewSubscription(value, subscription.firstPaymentId ?? '')
        toast({ tone: 'success', message: s.renewed })
      } else {
        await setSubscriptionValidUntil(subscription.id, value)
      }
      return true
    } catch (failure) {
      toast(dateFailure(failure, renew ? s.createFailed : null))
      return false
    } finally {
      await refreshAfter(queryClient, 'subscriptions')
    }
  }

  return (
    <DateDialog
      open={subscription !== null}
      title={renew ? s.renewTitle : s.validUntilTitle}
      about={`${subscription?.description ?? ''} · ${subscription?.userEmail ?? ''}`}
      intro={renew ? s.renewIntro : undefined}
      label={renew ? s.renewLabel : s.validUntilLabel}
      help={renew ? undefined : s.validUntilHelp}
      initial={renew ? (subscription?.renewSubscriptionWithoutDiscountDate ?? '') : (subscription?.validUntil ?? '')}
      problem={renew ? renewDateProblem : validUntilProblem}
      submitLabel={renew ? s.renewSubmit : t.save}
      onSave={save}
      onClose={onClose}
    />
  )
}
