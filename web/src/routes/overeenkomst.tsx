import { createFileRoute, redirect } from '@tanstack/react-router'
import { z } from 'zod'
import { AgreementScreen } from '@/features/agreement/AgreementScreen'
import { hasAcceptedAgreement } from '@/features/auth/agreement'
import { requireSignIn } from '@/features/auth/guards'
import { safeReturnTo } from '@/features/auth/returnTo'

const search = z.object({
  returnTo: z.string().optional().catch(undefined),
})

/** The only screen for a signed-in user who has not accepted the gebruikersovereenkomst. */
export const Route = createFileRoute('/overeenkomst')({
  validateSearch: search,
  beforeLoad: async ({ context, location, search }) => {
    const user = await requireSignIn(context.auth, location)
    if (hasAcceptedAgreement(user.profile)) throw redirect({ href: safeReturnTo(search.returnTo), replace: true })
  },
  component: AgreementScreen,
})
