import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useToast } from '@/components/Toast'
import { hisQuery, refreshAfter, setHisForUser, usersQuery, type UserRow } from '../api'
import { day } from '../format'
import { cmsTexts as t } from '../texts'
import { UserInfoDialog } from './UserInfoDialog'
import { CmsTable, usePagedFilter, type Column } from './CmsTable'
import { Check, Cross, Modal, PanelHeading, selectClass } from './ui'

/** Gebruikers: every user, filtered by HIS and a search, newest account first. */
export function UsersTab() {
  const list = usePagedFilter({ his: 'ALL' })
  const users = useQuery(usersQuery({ page: list.page, search: list.search, his: list.filters.his }))
  const his = useQuery(hisQuery())
  const [editing, setEditing] = useState<UserRow | null>(null)
  const [showing, setShowing] = useState<UserRow | null>(null)
  const c = t.users.columns

  const columns: Column<UserRow>[] = [
    { header: c.email, fit: 'truncate', title: (row) => row.userInfo.email, className: 'font-medium text-slate-900', cell: (row) => row.userInfo.email },
    {
      header: c.his,
      fit: 'nowrap',
      cell: (row) => (
        <span className="inline-flex items-center gap-1">
          {row.his?.name ?? t.none}
          <button type="button" onClick={() => setEditing(row)} className={iconButtonClass} aria-label={t.users.editHis(row.userInfo.email)}>
            <Icon name="pencil" className="size-4" />
          </button>
        </span>
      ),
    },
    { header: c.createdAt, fit: 'nowrap', cell: (row) => day(row.userInfo.createdAt) },
    {
      header: c.organisationSubscription,
      cell: (row) => (row.userInfo.hasActiveOrganizationSubscription ? <Check label={t.yes} /> : <Cross label={t.no} />),
    },
    {
      header: c.organisations,
      cell: (row) => (row.linkedSubOrganizations.length > 0 ? row.linkedSubOrganizations.map((o) => o.organizationName).join(', ') : t.none),
    },
    {
      header: c.info,
      hideHeader: true,
      fit: 'nowrap',
      align: 'right',
      cell: (row) => (
        <button type="button" onClick={() => setShowing(row)} className={iconButtonClass} aria-label={t.users.info(row.userInfo.email)}>
          <Icon name="eye" className="size-4" />
          {t.users.infoButton}
        </button>
      ),
    },
  ]

  return (
    <section aria-labelledby="cms-gebruikers">
      <PanelHeading id="cms-gebruikers" title={t.tabs.gebruikers} />
      <CmsTable
        label={t.tabs.gebruikers}
        columns={columns}
        rowKey={(row) => row.userInfo.id}
        query={users}
        list={list}
        searchPlaceholder={t.users.searchPlaceholder}
        filters={
          <label className="block w-full text-sm font-medium text-slate-700 sm:w-56">
            {t.users.hisFilter}
            <select value={list.filters.his} onChange={(e) => list.setFilter('his', e.target.value)} className={`mt-1 ${selectClass}`}>
              <option value="ALL">{t.all}</option>
              {(his.data ?? []).map((h) => (
                <option key={h.id} value={h.name}>
                  {h.name}
                </option>
              ))}
            </select>
          </label>
        }
      />

      <SetHisDialog user={editing} onClose={() => setEditing(null)} />
      <UserInfoDialog user={showing?.userInfo ?? null} onClose={() => setShowing(null)} />
    </section>
  )
}

/** 'Zet HIS voor gebruiker': a HIS from the list, or 'Geen'. */
function SetHisDialog({ user, onClose }: { user: UserRow | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const his = useQuery(hisQuery())
  const [choice, setChoice] = useState<{ userId: string; hisId: string } | null>(null)
  const [busy, setBusy] = useState(false)
  // the choice belongs to the user it was made for; another user starts from their own HIS
  const selected = choice && choice.userId === user?.userInfo.id ? choice.hisId : (user?.his?.id ?? '')

  const save = async () => {
    if (!user) return
    setBusy(true)
    try {
      await setHisForUser(user.userInfo.id, selected === '' ? null : selected)
      // the HIS tab counts a HIS's users
      await refreshAfter(queryClient, 'users', 'his')
      setChoice(null)
      onClose()
    } catch (failure) {
      toast({ tone: 'error', message: t.setHis.failed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal open={user !== null} title={t.setHis.title} onClose={onClose} busy={busy}>
      <p className="mt-1 text-sm text-slate-600">{user?.userInfo.email}</p>
      <label className="mt-4 block text-sm font-medium text-slate-700">
        {t.setHis.label}
        <select
          value={selected}
          onChange={(e) => user && setChoice({ userId: user.userInfo.id, hisId: e.target.value })}
          className={`mt-1 ${selectClass}`}
        >
          <option value="">{t.setHis.none}</option>
          {(his.data ?? []).map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </select>
      </label>
      <div className="mt-6 flex flex-row-reverse flex-wrap gap-3">
        <button type="button" onClick={() => void save()} disabled={busy} className={primaryButtonClass}>
          {t.save}
        </button>
        <button type="button" onClick={onClose} disabled={busy} className={secondaryButtonClass}>
          {t.close}
        </button>
      </div>
    </Modal>
  )
}
