import { useQuery } from '@tanstack/react-query'
import { auditQuery, type AuditRow } from '../api'
import { dateTime, dateTimeUtc } from '../format'
import { cmsTexts as t } from '../texts'
import { CmsTable, usePagedFilter, type Column } from './CmsTable'
import { PanelHeading } from './ui'

const a = t.audit

const columns: Column<AuditRow>[] = [
  { header: a.columns.log, className: 'text-slate-900', cell: (row) => row.log },
  {
    // the spec's dates are UTC; staff also read the moment as it was in the Netherlands
    header: a.columns.timestamp,
    fit: 'nowrap',
    cell: (row) => (
      <>
        <p>{dateTimeUtc(row.timestamp)}</p>
        <p className="text-xs text-slate-500">{a.localTime(dateTime(row.timestamp))}</p>
      </>
    ),
  },
]

/** Auditlog: every staff action, newest first, searchable. */
export function AuditTab() {
  const list = usePagedFilter({})
  const audit = useQuery(auditQuery({ page: list.page, search: list.search }))
  return (
    <section aria-labelledby="cms-auditlog">
      <PanelHeading id="cms-auditlog" title={t.tabs.auditlog}>
        {a.intro}
      </PanelHeading>
      <CmsTable
        label={t.tabs.auditlog}
        columns={columns}
        rowKey={(row) => String(row.id)}
        query={audit}
        list={list}
        searchPlaceholder={a.searchPlaceholder}
      />
    </section>
  )
}
