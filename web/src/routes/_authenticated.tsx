import { createFileRoute } from '@tanstack/react-router'
import { requireAgreement, requireSignIn } from '@/features/auth/guards'
import { AppShell } from '@/features/layout/AppShell'

/** Everything for signed-in users: the checks run in order, then the application's frame. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    const user = await requireSignIn(context.auth, location)
    requireAgreement(user, location)
    return { user }
  },
  component: AppShell,
})
