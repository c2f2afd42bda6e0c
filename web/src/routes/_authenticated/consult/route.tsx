import { createFileRoute } from '@tanstack/react-router'
import { requireSubscription } from '@/features/subscription'

/** The consult pages need an active subscription; without one the user goes to /subscription. */
export const Route = createFileRoute('/_authenticated/consult')({
  beforeLoad: ({ context }) => requireSubscription(context.queryClient),
})
