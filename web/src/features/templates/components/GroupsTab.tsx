import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { Icon } from '@/components/Icon'
import {
  createGroup,
  groupCountQueryOptions,
  groupPageQueryOptions,
  refreshAfterChange,
  templateKeys,
  useDeleteTemplate,
  type TemplateGroup,
} from '../api'
import { clampOffset } from '../pagination'
import { templateTexts as t } from '../texts'
import { useListState } from '../useListState'
import { useTemplateToasts } from '../useTemplateToasts'
import { ListToolbar } from './ListToolbar'
import { LoadFailed, MessageRow, tdClass, thClass } from './ListStates'
import { stackedTable } from '@/features/layout'
import { Pagination } from './Pagination'
import { VisibilityBadge } from './VisibilityBadge'

const COLUMNS = 4

/** The tab 'Template groepen': search, the table of groups, paging and the create buttons. */
export function GroupsTab() {
  const list = useListState()
  const count = useQuery(groupCountQueryOptions(list.filter))
  const offset = clampOffset(list.offset, count.data)
  const page = useQuery(groupPageQueryOptions(list.filter, offset))
  const [toDelete, setToDelete] = useState<TemplateGroup | null>(null)
  const remove = useDeleteTemplate('group')
  const toasts = useTemplateToasts('group')
  const navigate = useNavigate()
  const queryClient = useQueryClient()

  // a new group starts empty, with a title to change on its own page
  const create = useMutation({
    mutationFn: (shared: boolean) => createGroup(shared, { title: t.defaultGroupTitle }),
    onSuccess: (group) => {
      queryClient.setQueryData(templateKeys.one('group', group.id), group)
      refreshAfterChange(queryClient, 'group')
      void navigate({ to: '/template/group/$groupId', params: { groupId: group.id } })
    },
    onError: (error) => toasts.saveFailed(error),
  })

  const confirmDelete = () => {
    if (!toDelete) return
    remove.mutate(toDelete.id, {
      onSuccess: () => {
        setToDelete(null)
        toasts.deleted()
      },
      onError: (error) => {
        setToDelete(null)
        toasts.deleteFailed(error)
      },
    })
  }

  const rows = page.data ?? []
  const failed = page.isError || count.isError

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <ListToolbar
          query={list.typed}
          onQuery={list.setTyped}
          own={list.own}
          onOwn={list.setOwn}
          placeholder={t.searchGroupsPlaceholder}
        />
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            onClick={() => create.mutate(true)}
            disabled={create.isPending}
            className={`inline-flex items-center gap-1.5 ${secondaryButtonClass}`}
          >
            <Icon name="plus" className="size-4" />
            {t.newPublicGroup}
          </button>
          <button
            type="button"
            onClick={() => create.mutate(false)}
            disabled={create.isPending}
            className={`inline-flex items-center gap-1.5 disabled:opacity-60 ${primaryButtonClass}`}
          >
            <Icon name="plus" className="size-4" />
            {t.newPrivateGroup}
          </button>
        </div>
      </div>

      <div className="mt-6 overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
        <div className="relative overflow-x-auto">
          <table className={`min-w-full divide-y divide-slate-200 ${stackedTable.table}`} aria-busy={page.isFetching || count.isFetching}>
            <caption className="sr-only">{t.groupsCaption}</caption>
            <thead className={`bg-slate-50 ${stackedTable.head}`}>
              <tr>
                <th scope="col" className={thClass}>
                  {t.name}
                </th>
                <th scope="col" className={thClass}>
                  {t.description}
                </th>
                <th scope="col" className={thClass}>
                  {t.owner}
                </th>
                <th scope="col" className={`${thClass} text-right`}>
                  <span className="sr-only">{t.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody className={`divide-y divide-slate-100 ${stackedTable.body}`}>
              {failed ? (
                <MessageRow columns={COLUMNS}>
                  <LoadFailed
                    error={page.error ?? count.error}
                    onRetry={() => {
                      void count.refetch()
                      void page.refetch()
                    }}
                  />
                </MessageRow>
              ) : page.isPending ? (
                <MessageRow columns={COLUMNS}>{t.loading}</MessageRow>
              ) : rows.length === 0 ? (
                <MessageRow columns={COLUMNS}>{t.noGroups}</MessageRow>
              ) : (
                rows.map((group) => {
                  const name = group.title || t.untitled
                  return (
                    <tr key={group.id} className={stackedTable.row}>
                      <td className={`${tdClass} ${stackedTable.cell}`} data-label={t.name}>
                        <div className="flex flex-wrap items-center gap-2">
                          <span className="font-medium text-slate-900">
                            {group.title || <em className="text-slate-500">{t.untitled}</em>}
                          </span>
                          <VisibilityBadge visibility={group.visibilityType} />
                        </div>
                      </td>
                      <td className={`${tdClass} ${stackedTable.cell}`} data-label={t.description}>
                        <p className="max-w-md text-slate-500">{group.description}</p>
                      </td>
                      <td className={`${tdClass} whitespace-nowrap ${stackedTable.cell}`} data-label={t.owner}>
                        {group.owner?.name ?? t.noOwner}
                      </td>
                      <td className={`${tdClass} whitespace-nowrap text-right ${stackedTable.actions}`}>
                        <div className={`-my-1.5 flex justify-end gap-1 ${stackedTable.buttons}`}>
                          {group.canEdit ? (
                            <>
                              <Link to="/template/group/$groupId" params={{ groupId: group.id }} className={iconButtonClass}>
                                <Icon name="pencil" className="size-4" />
                                {t.edit}
                                <span className="sr-only">{t.forTitle(name)}</span>
                              </Link>
                              <button type="button" onClick={() => setToDelete(group)} className={`${iconButtonClass} hover:text-red-700`}>
                                <Icon name="trash" className="size-4" />
                                {t.remove}
                                <span className="sr-only">{t.forTitle(name)}</span>
                              </button>
                            </>
                          ) : (
                            <Link to="/template/group/$groupId" params={{ groupId: group.id }} className={iconButtonClass}>
                              <Icon name="eye" className="size-4" />
                              {t.open}
                              <span className="sr-only">{t.forTitle(name)}</span>
                            </Link>
                          )}
                        </div>
                      </td>
                    </tr>
                  )
                })
              )}
            </tbody>
          </table>
        </div>
        <Pagination offset={offset} rows={rows.length} count={count.data ?? 0} onOffset={list.setOffset} />
      </div>

      <ConfirmDialog
        open={toDelete !== null}
        title={t.confirmDeleteGroupTitle}
        message={t.confirmDeleteGroup(toDelete?.title || t.untitled)}
        confirmLabel={t.remove}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </div>
  )
}
