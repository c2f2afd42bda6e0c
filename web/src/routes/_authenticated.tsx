import { createFileRoute } from '@tanstack/react-router'
import { requireAgreement, requireSignIn } from '@/features/auth/guards'
import { AppShell } from '@/features/layout/AppShell'
import { requireOpenWhileRetiring } from '@/features/retiring/guard'
import { SignedInError } from '@/features/retiring/SignedInError'

/** Everything for signed-in users: the checks run in order, then the application's frame. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    await requireOpenWhileRetiring(context, location)
    const user = await requireSignIn(context.auth, location)
    requireAgreement(user, location)
    return { user }
  },
  errorComponent: SignedInError,
  component: AppShell,
})
