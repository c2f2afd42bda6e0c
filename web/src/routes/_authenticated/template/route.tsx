import { createFileRoute } from '@tanstack/react-router'
import { requireSubscription } from '@/features/subscription'

/** The template pages need an active subscription; without one the user goes to /subscription. */
export const Route = createFileRoute('/_authenticated/template')({
  beforeLoad: ({ context }) => requireSubscription(context.queryClient),
})
