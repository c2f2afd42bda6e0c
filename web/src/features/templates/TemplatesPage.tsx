import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { EntriesTab } from './components/EntriesTab'
import { GroupsTab } from './components/GroupsTab'
import { templateTabs, type TemplateTab } from './constants'
import { templateTexts as t } from './texts'

const tabClass =
  'border-b-2 border-transparent px-1 pb-3 text-sm font-medium text-slate-500 hover:border-slate-300 hover:text-slate-700 focus:outline-none data-focus-visible:outline-2 data-focus-visible:outline-brand-700 data-selected:border-brand-700 data-selected:text-brand-800'

/** /template: the entries and the groups, each in a tab. */
export function TemplatesPage({ tab, onTab }: { tab: TemplateTab; onTab: (tab: TemplateTab) => void }) {
  return (
    <div>
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>

      <TabGroup selectedIndex={templateTabs.indexOf(tab)} onChange={(index) => onTab(templateTabs[index] ?? 'regels')} className="mt-8">
        <TabList aria-label={t.tabsLabel} className="flex gap-8 border-b border-slate-200">
          <Tab className={tabClass}>{t.entriesTab}</Tab>
          <Tab className={tabClass}>{t.groupsTab}</Tab>
        </TabList>
        <TabPanels className="mt-6">
          {/* both stay mounted, so each keeps its search and page while the other is shown */}
          <TabPanel unmount={false} className="focus:outline-none">
            <EntriesTab />
          </TabPanel>
          <TabPanel unmount={false} className="focus:outline-none">
            <GroupsTab />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  )
}
