import { useState, type ReactNode } from 'react'
import { Field, Input, Label } from '@headlessui/react'
import { secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { useDebouncedValue } from '@/lib/useDebouncedValue'
import { pageCount, pageLabel, SEARCH_DEBOUNCE_MS } from '../rules'
import { cmsTexts as t } from '../texts'
import { inputClass } from './ui'

/** One column of a CMS table: its header, its cell, and how a long value fits. */
export interface Column<Row> {
  header: string
  /** The header is for assistive technology only (a column of buttons). */
  hideHeader?: boolean
  cell: (row: Row) => ReactNode
  /**
   * `wrap` (the default): a long value wraps; `truncate`: one line, cut off with '…' from the
   * `md` width on, the whole value in the tooltip (`title`); `nowrap`: a short value kept on one
   * line (a date, an amount, a row's buttons).
   */
  fit?: 'wrap' | 'truncate' | 'nowrap'
  /** The tooltip of a truncated cell (its whole value). */
  title?: (row: Row) => string | undefined
  align?: 'right'
  /** Classes of the cell's content (its colour, its weight, a truncated column's width). */
  className?: string | ((row: Row) => string | undefined)
}

/** A page of a server-paged list, as every CMS list call answers. */
export interface Paged<Row> {
  rows: Row[]
  total: number
  pageSize: number
}

/** What the table reads of its query. */
export interface TableQuery<Data> {
  data: Data | undefined
  isPending: boolean
  isError: boolean
  refetch: () => unknown
}

/**
 * The state of a server-paged list that the table reads and changes: the page shown (from 0)
 * and, for a list with a search box, what was typed. `usePagedFilter` gives all of it.
 */
export interface ListState {
  page: number
  setPage: (page: number) => void
  typed?: string
  setTyped?: (typed: string) => void
}

/** A row of the table, for the rows a tab draws itself (an add or edit row). */
export const rowClass = 'block px-4 py-3 md:table-row md:p-0'

const cellBase =
  'flex items-start gap-3 py-1 text-sm text-slate-700 md:table-cell md:px-4 md:py-3 md:align-top ' +
  // below md the row is a card, and each cell says what it is (its column's header)
  'before:w-32 before:shrink-0 before:pt-0.5 before:text-xs before:font-semibold before:tracking-wide before:text-slate-500 before:uppercase before:content-[attr(data-label)] md:before:hidden'

/** The cell of a row a tab draws itself; `label` is its column's header, shown in the card layout. */
export function Cell({ label, className = '', colSpan, children }: { label?: string; className?: string; colSpan?: number; children: ReactNode }) {
  return (
    <td data-label={label} colSpan={colSpan} className={`${cellBase} ${label ? '' : 'before:hidden'} ${className}`}>
      <div className="min-w-0 flex-1">{children}</div>
    </td>
  )
}

const fits = {
  wrap: 'break-words',
  // below md the card has the room to wrap
  truncate: 'break-all md:max-w-56 md:truncate md:break-normal',
  nowrap: 'md:whitespace-nowrap',
}

/**
 * The one table of the CMS: the search box and the filters above it, the columns, the rows of a
 * server-paged list with 'Pagina X van Y', and a row saying it loads, is empty, or failed (with a
 * button that asks again). From the `md` width on a table that fits the page (long values wrap or
 * are cut off with a tooltip); below it every row is a card whose cells carry their header.
 */
export function CmsTable<Row>({
  label,
  columns,
  rowKey,
  query,
  list,
  searchPlaceholder,
  filters,
  empty = t.noResults,
  rowClassName,
  renderRow,
  leading,
}: {
  /** Names the table for assistive technology. */
  label: string
  columns: Column<Row>[]
  rowKey: (row: Row) => string
  query: TableQuery<Paged<Row> | Row[]>
  /** The page and the search of a server-paged list. */
  list?: ListState
  /** Shows a search box (bound to `list`'s `typed`) with this placeholder. */
  searchPlaceholder?: string
  filters?: ReactNode
  /** What an empty list says. */
  empty?: string
  rowClassName?: (row: Row) => string | undefined
  /** A row drawn by the tab instead (an inline edit); `undefined` draws it as usual. */
  renderRow?: (row: Row) => ReactNode | undefined
  /** Rows before the list (an add row). */
  leading?: ReactNode
}) {
  const data = query.data
  const rows = data === undefined ? [] : Array.isArray(data) ? data : data.rows
  const paged = data !== undefined && !Array.isArray(data) ? data : null
  const search =
    searchPlaceholder !== undefined && list?.setTyped
      ? { value: list.typed ?? '', onChange: list.setTyped, placeholder: searchPlaceholder }
      : null

  return (
    <>
      {(search || filters) && (
        <div className="mt-4 flex flex-wrap items-end gap-x-6 gap-y-3">
          {search && <SearchBox {...search} />}
          {filters}
        </div>
      )}
      <div className="relative mt-4 max-w-full overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
        {/* relative: the sr-only header texts (absolutely placed) stay inside the box */}
        <div className="relative md:overflow-x-auto">
          <table aria-label={label} className="block w-full md:table">
            <thead className="max-md:sr-only md:bg-slate-50">
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.header}
                    scope="col"
                    className={`border-b border-slate-200 px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase ${column.align === 'right' ? 'text-right' : ''}`}
                  >
                    {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="block divide-y divide-slate-100 md:table-row-group">
              {leading}
              <StateRow columns={columns.length} query={query} empty={query.data !== undefined && rows.length === 0 ? empty : null} />
              {rows.map(
                (row) =>
                  renderRow?.(row) ?? (
                    <tr key={rowKey(row)} className={`${rowClass} ${rowClassName?.(row) ?? ''}`}>
                      {columns.map((column) => (
                        <td
                          key={column.header}
                          data-label={column.hideHeader ? undefined : column.header}
                          className={`${cellBase} ${column.hideHeader ? 'before:hidden' : ''} ${column.align === 'right' ? 'md:text-right' : ''}`}
                        >
                          <div
                            title={column.title?.(row)}
                            className={`min-w-0 flex-1 ${fits[column.fit ?? 'wrap']} ${typeof column.className === 'function' ? (column.className(row) ?? '') : (column.className ?? '')}`}
                          >
                            {column.cell(row)}
                          </div>
                        </td>
                      ))}
                    </tr>
                  ),
              )}
            </tbody>
          </table>
        </div>
        {list && paged && <Pager page={list.page} total={paged.total} pageSize={paged.pageSize} onPage={list.setPage} />}
      </div>
    </>
  )
}

/** A row saying the list is loading or empty, or that it failed, with a button that asks again. */
function StateRow({ columns, query, empty }: { columns: number; query: TableQuery<unknown>; empty: string | null }) {
  if (!query.isPending && !query.isError && empty === null) return null
  return (
    <tr className="block md:table-row">
      <td colSpan={columns} className="block px-4 py-6 text-sm md:table-cell">
        {query.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-red-700">
            {t.loadFailed}
            <button type="button" onClick={() => void query.refetch()} className={`inline-flex items-center gap-1.5 ${secondaryButtonClass}`}>
              <Icon name="refresh" className="size-4" />
              {t.retry}
            </button>
          </div>
        ) : (
          <span className="text-slate-500">{query.isPending ? t.loading : empty}</span>
        )}
      </td>
    </tr>
  )
}

/** The search box, the page and the other filters of a server-paged list; another filter starts at the first page. */
export function usePagedFilter<F extends object>(initial: F) {
  const [typed, setTyped] = useState('')
  const search = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS)
  const [filters, setFilters] = useState(initial)
  const key = JSON.stringify([search, filters])
  const [paged, setPaged] = useState({ key, page: 0 })
  const page = paged.key === key ? paged.page : 0
  return {
    typed,
    setTyped,
    search,
    filters,
    setFilter: <K extends keyof F>(name: K, value: F[K]) => setFilters((prev) => ({ ...prev, [name]: value })),
    page,
    setPage: (next: number) => setPaged({ key, page: next }),
  }
}

function SearchBox({ value, onChange, placeholder }: { value: string; onChange: (value: string) => void; placeholder: string }) {
  return (
    <Field className="relative w-full sm:w-80">
      <Label className="sr-only">{t.search}</Label>
      <Icon name="search" className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-400" />
      <Input
        type="search"
        maxLength={200}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={`${inputClass} pl-9`}
      />
    </Field>
  )
}

/** 'Pagina X van Y' with 'Vorige' and 'Volgende'; pages count from 0. */
function Pager({ page, total, pageSize, onPage }: { page: number; total: number; pageSize: number; onPage: (page: number) => void }) {
  const pages = pageCount(total, pageSize)
  return (
    <nav aria-label={t.pagination} className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-white px-4 py-3">
      <p className="text-sm text-slate-700" aria-live="polite">
        {pageLabel(page, total, pageSize)}
        <span className="ml-2 text-slate-500">({t.results(total)})</span>
      </p>
      <div className="flex gap-3">
        <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 0} className={secondaryButtonClass}>
          {t.previous}
        </button>
        <button type="button" onClick={() => onPage(page + 1)} disabled={page + 1 >= pages} className={secondaryButtonClass}>
          {t.next}
        </button>
      </div>
    </nav>
  )
}
