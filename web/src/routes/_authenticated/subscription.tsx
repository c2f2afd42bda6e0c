import { createFileRoute } from '@tanstack/react-router'
import { SubscriptionPage } from '@/features/subscription'

export const Route = createFileRoute('/_authenticated/subscription')({
  component: SubscriptionPage,
})
