import { useQuery } from '@tanstack/react-query'
import { auditQuery } from '../api'
import { dateTime } from '../format'
import { cmsTexts as t } from '../texts'
import { PanelHeading, Pager, SearchBox, StateRow, TableCard, tdClass, thClass, usePagedFilter } from './ui'

/** Auditlog: every staff action, newest first, searchable. */
export function AuditTab() {
  const list = usePagedFilter({})
  const audit = useQuery(auditQuery({ page: list.page, search: list.search }))
  const rows = audit.data?.rows ?? []
  return (
    <section aria-labelledby="cms-auditlog">
      <PanelHeading id="cms-auditlog" title={t.tabs.auditlog}>
        {t.audit.intro}
      </PanelHeading>
      <div className="mt-4">
        <SearchBox value={list.typed} onChange={list.setTyped} placeholder={t.audit.searchPlaceholder} />
      </div>
      <TableCard
        label={t.tabs.auditlog}
        footer={audit.data && <Pager page={list.page} total={audit.data.total} pageSize={audit.data.pageSize} onPage={list.setPage} />}
      >
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={thClass}>
              {t.audit.columns.log}
            </th>
            <th scope="col" className={thClass}>
              {t.audit.columns.timestamp}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          <StateRow columns={2} loading={audit.isPending} failed={audit.isError} empty={audit.isSuccess && rows.length === 0} />
          {rows.map((row) => (
            <tr key={row.id}>
              <td className={`${tdClass} min-w-72 text-slate-900`}>{row.log}</td>
              <td className={`${tdClass} whitespace-nowrap`}>{dateTime(row.timestamp)}</td>
            </tr>
          ))}
        </tbody>
      </TableCard>
    </section>
  )
}
