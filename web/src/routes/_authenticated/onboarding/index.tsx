import { createFileRoute } from '@tanstack/react-router'
import { onboardingQueryOptions } from '@/features/onboarding/api'
import { OnboardingPage } from '@/features/onboarding/OnboardingPage'

/** /onboarding/ (with its slash, as the specification writes it): the profile questionnaire. */
export const Route = createFileRoute('/_authenticated/onboarding/')({
  // Not awaited and never failing: the page has its own loading state, and shows the form even when the call fails.
  loader: ({ context }) => void context.queryClient.prefetchQuery(onboardingQueryOptions()),
  component: OnboardingPage,
})
