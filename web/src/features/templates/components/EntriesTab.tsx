import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { Icon } from '@/components/Icon'
import { entryCountQueryOptions, entryPageQueryOptions, useDeleteTemplate, type TemplateEntry } from '../api'
import { clampOffset } from '../pagination'
import { soepTypeName, templateTexts as t } from '../texts'
import { useListState } from '../useListState'
import { useTemplateToasts } from '../useTemplateToasts'
import { CodeChips } from './CodeChips'
import { ListToolbar } from './ListToolbar'
import { LoadFailed, MessageRow, tdClass, thClass } from './ListStates'
import { stackedTable } from '@/features/layout'
import { Pagination } from './Pagination'
import { PreviewPanel } from './PreviewPanel'
import { VisibilityBadge } from './VisibilityBadge'

const COLUMNS = 5

/** The tab 'Template regels': search, the table of entries, paging and the create buttons. */
export function EntriesTab() {
  const list = useListState()
  const count = useQuery(entryCountQueryOptions(list.filter))
  const offset = clampOffset(list.offset, count.data)
  const page = useQuery(entryPageQueryOptions(list.filter, offset))
  const [preview, setPreview] = useState<TemplateEntry | null>(null)
  const [toDelete, setToDelete] = useState<TemplateEntry | null>(null)
  const remove = useDeleteTemplate('entry')
  const toasts = useTemplateToasts('entry')

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
          placeholder={t.searchEntriesPlaceholder}
        />
        <div className="flex flex-wrap gap-3">
          <Link
            to="/template/entry/new/$shared"
            params={{ shared: 'shared' }}
            className={`inline-flex items-center gap-1.5 ${secondaryButtonClass}`}
          >
            <Icon name="plus" className="size-4" />
            {t.newPublicEntry}
          </Link>
          <Link
            to="/template/entry/new/$shared"
            params={{ shared: 'private' }}
            className={`inline-flex items-center gap-1.5 ${primaryButtonClass}`}
          >
            <Icon name="plus" className="size-4" />
            {t.newPrivateEntry}
          </Link>
        </div>
      </div>

      <div className="mt-6 overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
        <div className="relative overflow-x-auto">
          <table className={`min-w-full divide-y divide-slate-200 ${stackedTable.table}`} aria-busy={page.isFetching || count.isFetching}>
            <caption className="sr-only">{t.entriesCaption}</caption>
            <thead className={`bg-slate-50 ${stackedTable.head}`}>
              <tr>
                <th scope="col" className={thClass}>
                  {t.nameAndDescription}
                </th>
                <th scope="col" className={thClass}>
                  {t.codes}
                </th>
                <th scope="col" className={thClass}>
                  {t.type}
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
                <MessageRow columns={COLUMNS}>{t.noEntries}</MessageRow>
              ) : (
                rows.map((entry) => (
                  <tr key={entry.id} className={stackedTable.row}>
                    <td className={`${tdClass} ${stackedTable.cell}`} data-label={t.nameAndDescription}>
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="font-medium text-slate-900">
                          {entry.title || <em className="text-slate-500">{t.untitled}</em>}
                        </span>
                        <VisibilityBadge visibility={entry.visibilityType} />
                      </div>
                      {entry.description && <p className="mt-1 max-w-md text-slate-500">{entry.description}</p>}
                    </td>
                    <td className={`${tdClass} ${stackedTable.cell}`} data-label={t.codes}>
                      <CodeChips codes={entry.codes} />
                    </td>
                    <td className={`${tdClass} whitespace-nowrap ${stackedTable.cell}`} data-label={t.type}>
                      {soepTypeName(entry.soepType)}
                    </td>
                    <td className={`${tdClass} whitespace-nowrap ${stackedTable.cell}`} data-label={t.owner}>
                      {entry.owner?.name ?? t.noOwner}
                    </td>
                    <td className={`${tdClass} whitespace-nowrap text-right ${stackedTable.actions}`}>
                      <div className={`-my-1.5 flex justify-end gap-1 ${stackedTable.buttons}`}>
                        <button type="button" onClick={() => setPreview(entry)} className={iconButtonClass}>
                          <Icon name="eye" className="size-4" />
                          {t.preview}
                          <span className="sr-only">{t.forTitle(entry.title || t.untitled)}</span>
                        </button>
                        {entry.canEdit && (
                          <>
                            <Link to="/template/entry/$entryId" params={{ entryId: entry.id }} className={iconButtonClass}>
                              <Icon name="pencil" className="size-4" />
                              {t.edit}
                              <span className="sr-only">{t.forTitle(entry.title || t.untitled)}</span>
                            </Link>
                            <button type="button" onClick={() => setToDelete(entry)} className={`${iconButtonClass} hover:text-red-700`}>
                              <Icon name="trash" className="size-4" />
                              {t.remove}
                              <span className="sr-only">{t.forTitle(entry.title || t.untitled)}</span>
                            </button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <Pagination offset={offset} rows={rows.length} count={count.data ?? 0} onOffset={list.setOffset} />
      </div>

      <PreviewPanel entry={preview} onClose={() => setPreview(null)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={t.confirmDeleteEntryTitle}
        message={t.confirmDeleteEntry(toDelete?.title || t.untitled)}
        confirmLabel={t.remove}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </div>
  )
}
