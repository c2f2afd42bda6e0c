import { createFileRoute } from '@tanstack/react-router'
import { SettingsPage } from '@/features/settings/SettingsPage'
import { meQueryOptions } from '@/features/user/api'

export const Route = createFileRoute('/_authenticated/settings')({
  loader: ({ context }) => context.queryClient.ensureQueryData(meQueryOptions()),
  component: SettingsPage,
})
