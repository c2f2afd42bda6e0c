import { createFileRoute } from '@tanstack/react-router'
import { HandOffPage } from '@/features/handoff/HandOffPage'

/** /consult/{consultId} (one segment): the public page that hands a note to the record system. No sign-in. */
export const Route = createFileRoute('/consult/$consultId')({
  component: function HandOffRoute() {
    const { consultId } = Route.useParams()
    return <HandOffPage key={consultId} consultId={consultId} />
  },
})
