import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, ApiError } from '@/api/client'
import type { components } from '@/api/schema'

export type PersonalizedSoap = components['schemas']['PersonalizedSoap']
export type PersonalizedSoapInput = components['schemas']['PersonalizedSoapInput']

export const personalizedSoapKey = ['user', 'personalized', 'soap'] as const

/** The signed-in user's SOEP examples. */
export function personalizedSoapQueryOptions() {
  return queryOptions({
    queryKey: personalizedSoapKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/personalized/soap', { signal })),
  })
}

/** Adds an example (no id) or changes one (with its id); a 400 carries a Dutch reason. */
export async function saveSoapExample(body: PersonalizedSoapInput): Promise<PersonalizedSoap> {
  return unwrap(await api.POST('/api/user/personalized/soap', { body }))
}

export async function deleteSoapExample(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/user/personalized/soap/{id}', { params: { path: { id } } })
  if (!response.ok) throw new ApiError(response.status, error)
}

export function useSaveSoapExample() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveSoapExample,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalizedSoapKey }),
  })
}

export function useDeleteSoapExample() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteSoapExample,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalizedSoapKey }),
  })
}
