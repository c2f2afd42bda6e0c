import { createFileRoute } from '@tanstack/react-router'
import { readinessQueryOptions } from '@/features/status/api'
import { StatusPage } from '@/features/status/StatusPage'

export const Route = createFileRoute('/_authenticated/status')({
  loader: ({ context }) => context.queryClient.ensureQueryData(readinessQueryOptions()),
  component: StatusPage,
})
