import { createFileRoute } from '@tanstack/react-router'
import { personalizedSoapQueryOptions } from '@/features/personalize/api'
import { PersonalizePage } from '@/features/personalize/PersonalizePage'

/** /personalize: the user's own SOEP examples. */
export const Route = createFileRoute('/_authenticated/personalize')({
  // Not awaited: the page has its own loading and failure states.
  loader: ({ context }) => void context.queryClient.prefetchQuery(personalizedSoapQueryOptions()),
  component: PersonalizePage,
})
