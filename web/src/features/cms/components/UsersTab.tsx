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
import { Check, Cross, Modal, PanelHeading, Pager, SearchBox, StateRow, TableCard, selectClass, tdClass, thClass, usePagedFilter } from './ui'

/** Gebruikers: every user, filtered by HIS and a search, newest account first. */
export function UsersTab() {
  const list = usePagedFilter({ his: 'ALL' })
  const users = useQuery(usersQuery({ page: list.page, search: list.search, his: list.filters.his }))
  const his = useQuery(hisQuery())
  const [editing, setEditing] = useState<UserRow | null>(null)
  const [showing, setShowing] = useState<UserRow | null>(null)
  const c = t.users.columns
  const rows = users.data?.rows ?? []

  return (
    <section aria-labelledby="cms-gebruikers">
      <PanelHeading id="cms-gebruikers" title={t.tabs.gebruikers} />
      <div className="mt-4 flex flex-wrap items-end gap-4">
        <SearchBox value={list.typed} onChange={list.setTyped} placeholder={t.users.searchPlaceholder} />
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
      </div>

      <TableCard
        label={t.tabs.gebruikers}
        footer={users.data && <Pager page={list.page} total={users.data.total} pageSize={users.data.pageSize} onPage={list.setPage} />}
      >
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={thClass}>
              {c.email}
            </th>
            <th scope="col" className={thClass}>
              {c.his}
            </th>
            <th scope="col" className={thClass}>
              {c.createdAt}
            </th>
            <th scope="col" className={thClass}>
              {c.organisationSubscription}
            </th>
            <th scope="col" className={thClass}>
              {c.organisations}
            </th>
            <th scope="col" className={thClass}>
              <span className="sr-only">{c.info}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <StateRow columns={6} loading={users.isPending} failed={users.isError} empty={users.isSuccess && rows.length === 0} />
          {rows.map((row) => {
            const u = row.userInfo
            return (
              <tr key={u.id}>
                <td className={`${tdClass} font-medium whitespace-nowrap text-slate-900`}>{u.email}</td>
                <td className={`${tdClass} whitespace-nowrap`}>
                  <span className="inline-flex items-center gap-1">
                    {row.his?.name ?? t.none}
                    <button type="button" onClick={() => setEditing(row)} className={iconButtonClass} aria-label={t.users.editHis(u.email)}>
                      <Icon name="pencil" className="size-4" />
                    </button>
                  </span>
                </td>
                <td className={`${tdClass} whitespace-nowrap`}>{day(u.createdAt)}</td>
                <td className={tdClass}>{u.hasActiveOrganizationSubscription ? <Check label={t.yes} /> : <Cross label={t.no} />}</td>
                <td className={`${tdClass} min-w-40`}>
                  {row.linkedSubOrganizations.length > 0 ? row.linkedSubOrganizations.map((o) => o.organizationName).join(', ') : t.none}
                </td>
                <td className={`${tdClass} text-right`}>
                  <button type="button" onClick={() => setShowing(row)} className={iconButtonClass} aria-label={t.users.info(u.email)}>
                    <Icon name="eye" className="size-4" />
                    {t.users.infoButton}
                  </button>
                </td>
              </tr>
            )
          })}
        </tbody>
      </TableCard>

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
