import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { templateTabs, type TemplateTab } from '@/features/templates/constants'
import { TemplatesPage } from '@/features/templates/TemplatesPage'

const search = z.object({
  // 'regels' (the default) is left out of the address
  tab: z.enum(templateTabs).optional().catch(undefined),
})

export const Route = createFileRoute('/_authenticated/template/')({
  validateSearch: search,
  component: TemplatesRoute,
})

function TemplatesRoute() {
  const { tab = 'regels' } = Route.useSearch()
  const navigate = Route.useNavigate()
  const onTab = (next: TemplateTab) =>
    void navigate({ search: (prev) => ({ ...prev, tab: next === 'regels' ? undefined : next }), replace: true })
  return <TemplatesPage tab={tab} onTab={onTab} />
}
