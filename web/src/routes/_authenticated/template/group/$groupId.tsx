import { createFileRoute } from '@tanstack/react-router'
import { groupQueryOptions } from '@/features/templates/api'
import { GroupEditPage } from '@/features/templates/GroupEditPage'
import { TemplateLoadError } from '@/features/templates/TemplateProblem'

export const Route = createFileRoute('/_authenticated/template/group/$groupId')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(groupQueryOptions(params.groupId)),
  errorComponent: TemplateLoadError,
  component: GroupRoute,
})

function GroupRoute() {
  const { groupId } = Route.useParams()
  // another group is another form
  return <GroupEditPage key={groupId} id={groupId} />
}
