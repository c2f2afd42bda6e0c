import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { CmsPage } from '@/features/cms/CmsPage'
import { cmsTabs, type CmsTab } from '@/features/cms/tabs'

const search = z.object({
  // the first tab when absent or unknown
  tab: z.enum(cmsTabs).optional().catch(undefined),
})

/** /cms: the staff CMS; the page checks access itself (`POST /api/cms`) and sends others to `/`. */
export const Route = createFileRoute('/_authenticated/cms')({
  validateSearch: search,
  component: CmsRoute,
})

function CmsRoute() {
  const { tab = 'gebruikers' } = Route.useSearch()
  const navigate = Route.useNavigate()
  const onTab = (next: CmsTab) => void navigate({ search: (prev) => ({ ...prev, tab: next }), replace: true })
  return <CmsPage tab={tab} onTab={onTab} />
}
