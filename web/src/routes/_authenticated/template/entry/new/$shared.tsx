import { createFileRoute, notFound } from '@tanstack/react-router'
import { NewEntryPage } from '@/features/templates/NewEntryPage'

/** /template/entry/new/shared (a public entry) and /template/entry/new/private; anything else is not a page. */
export const Route = createFileRoute('/_authenticated/template/entry/new/$shared')({
  beforeLoad: ({ params }) => {
    if (params.shared !== 'shared' && params.shared !== 'private') throw notFound()
  },
  component: NewEntryRoute,
})

function NewEntryRoute() {
  const { shared } = Route.useParams()
  return <NewEntryPage key={shared} shared={shared === 'shared'} />
}
