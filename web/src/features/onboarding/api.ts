import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { meQueryOptions } from '@/features/user'
import type { OnboardingProfile } from './profile'

export const onboardingKey = ['user', 'onboarding'] as const

/** The signed-in user's onboarding profile (every field null when never filled in). */
export function onboardingQueryOptions() {
  return queryOptions({
    queryKey: onboardingKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/onboarding/user', { signal })),
  })
}

/** Saves the whole profile; the api answers with it as stored, or a 400 with a Dutch reason. */
export async function saveOnboarding(body: OnboardingProfile): Promise<OnboardingProfile> {
  return unwrap(await api.POST('/api/user/onboarding/info', { body }))
}

/**
 * Saving the questionnaire. Once saved, the profile and the user (Home greets by the preferred
 * name) are asked again; the user is fetched before the mutation counts as done, so the next page
 * does not show the old name first.
 */
export function useSaveOnboarding() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveOnboarding,
    onSuccess: async (stored) => {
      queryClient.setQueryData(onboardingKey, stored)
      void queryClient.invalidateQueries({ queryKey: onboardingKey })
      await queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey, refetchType: 'all' })
    },
  })
}
