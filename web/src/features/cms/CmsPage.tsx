import { useEffect, type ReactNode } from 'react'
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { accessQuery } from './api'
import { AuditTab } from './components/AuditTab'
import { HisTab } from './components/HisTab'
import { JobsTab } from './components/JobsTab'
import { PaymentsTab } from './components/PaymentsTab'
import { StatisticsTab } from './components/StatisticsTab'
import { SubscriptionsTab } from './components/SubscriptionsTab'
import { selectClass } from './components/ui'
import { UsersTab } from './components/UsersTab'
import { OrganisationSubscriptionsTab } from './organisations/OrganisationSubscriptionsTab'
import { OrganisationsTab } from './organisations/OrganisationsTab'
import { cmsTabs, type CmsTab } from './tabs'
import { cmsTexts as t } from './texts'

const tabClass =
  'shrink-0 border-b-2 border-transparent px-1 pb-3 text-sm font-medium whitespace-nowrap text-slate-500 hover:border-slate-300 hover:text-slate-700 focus:outline-none data-focus-visible:outline-2 data-focus-visible:outline-brand-700 data-selected:border-brand-700 data-selected:text-brand-800'

/**
 * /cms: the staff CMS (spec §2.3). The access check (`POST /api/cms`) answers first; a 403 or any
 * other failure sends the user to `/`. Then the tabs, the chosen one in the address.
 */
export function CmsPage({ tab, onTab }: { tab: CmsTab; onTab: (tab: CmsTab) => void }) {
  const access = useQuery(accessQuery())
  const navigate = useNavigate()
  const refused = access.isError || (access.isSuccess && !access.data.staff)

  useEffect(() => {
    if (refused) void navigate({ to: '/', replace: true })
  }, [refused, navigate])

  if (!access.isSuccess || refused) {
    return (
      <p role="status" className="text-sm text-slate-500">
        {t.checking}
      </p>
    )
  }

  const index = cmsTabs.indexOf(tab)
  return (
    <div className="min-w-0">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>

      <label className="mt-6 block text-sm font-medium text-slate-700 md:hidden">
        {t.tabLabel}
        <select value={tab} onChange={(event) => onTab(event.target.value as CmsTab)} className={`mt-1 ${selectClass}`}>
          {cmsTabs.map((id) => (
            <option key={id} value={id}>
              {t.tabs[id]}
            </option>
          ))}
        </select>
      </label>

      <TabGroup selectedIndex={index} onChange={(next) => onTab(cmsTabs[next] ?? 'gebruikers')} className="mt-6 md:mt-8">
        <TabList aria-label={t.tabsLabel} className="hidden gap-6 overflow-x-auto border-b border-slate-200 md:flex">
          {cmsTabs.map((id) => (
            <Tab key={id} className={tabClass}>
              {t.tabs[id]}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="mt-6">
          {cmsTabs.map((id) => (
            <TabPanel key={id} className="min-w-0 focus:outline-none">
              {panelOf(id)}
            </TabPanel>
          ))}
        </TabPanels>
      </TabGroup>
    </div>
  )
}

function panelOf(tab: CmsTab): ReactNode {
  switch (tab) {
    case 'gebruikers':
      return <UsersTab />
    case 'abonnementen':
      return <SubscriptionsTab />
    case 'betalingen':
      return <PaymentsTab />
    case 'organisaties':
      return <OrganisationsTab />
    case 'organisatie-abonnementen':
      return <OrganisationSubscriptionsTab />
    case 'his':
      return <HisTab />
    case 'statistieken':
      return <StatisticsTab />
    case 'auditlog':
      return <AuditTab />
    case 'achtergrondtaken':
      return <JobsTab />
  }
}
