import { createFileRoute } from '@tanstack/react-router'
import { entryQueryOptions } from '@/features/templates/api'
import { EntryEditPage } from '@/features/templates/EntryEditPage'
import { TemplateLoadError } from '@/features/templates/TemplateProblem'

export const Route = createFileRoute('/_authenticated/template/entry/$entryId')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(entryQueryOptions(params.entryId)),
  errorComponent: TemplateLoadError,
  component: EntryRoute,
})

function EntryRoute() {
  const { entryId } = Route.useParams()
  // another entry is another form
  return <EntryEditPage key={entryId} id={entryId} />
}
