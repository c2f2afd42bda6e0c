import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '@/api/client'
import type { components } from '@/api/schema'
import { PAGE_SIZE } from './constants'

export type TemplateEntry = components['schemas']['TemplateEntry']
export type TemplateGroup = components['schemas']['TemplateGroup']
export type EntryInput = components['schemas']['EntryInput']
export type NewEntryInput = components['schemas']['NewEntryInput']
export type GroupInput = components['schemas']['GroupInput']
export type TemplateKind = 'entry' | 'group'

/** What a template list shows: the typed words and whether only the user's own templates. */
export interface ListFilter {
  query: string
  own: boolean
}

export const templateKeys = {
  all: ['templates'] as const,
  kind: (kind: TemplateKind) => ['templates', kind] as const,
  lists: (kind: TemplateKind) => ['templates', kind, 'list'] as const,
  page: (kind: TemplateKind, filter: ListFilter, offset: number, limit: number) =>
    ['templates', kind, 'list', { query: filter.query.trim(), own: filter.own, offset, limit }] as const,
  count: (kind: TemplateKind, filter: ListFilter) =>
    ['templates', kind, 'list', 'count', { query: filter.query.trim(), own: filter.own }] as const,
  one: (kind: TemplateKind, id: string) => ['templates', kind, 'one', id] as const,
}

function listParams(filter: ListFilter) {
  const query = filter.query.trim()
  return { ...(query ? { query } : {}), ...(filter.own ? { userTemplates: true } : {}) }
}

export function entryPageQueryOptions(filter: ListFilter, offset: number, limit = PAGE_SIZE) {
  return queryOptions({
    queryKey: templateKeys.page('entry', filter, offset, limit),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/template/entry/query', { params: { query: { ...listParams(filter), limit, offset } }, signal })),
    placeholderData: keepPreviousData,
  })
}

export function entryCountQueryOptions(filter: ListFilter) {
  return queryOptions({
    queryKey: templateKeys.count('entry', filter),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/template/entry/count', { params: { query: listParams(filter) }, signal })),
    placeholderData: keepPreviousData,
  })
}

export function groupPageQueryOptions(filter: ListFilter, offset: number, limit = PAGE_SIZE) {
  return queryOptions({
    queryKey: templateKeys.page('group', filter, offset, limit),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/template/group/query', { params: { query: { ...listParams(filter), limit, offset } }, signal })),
    placeholderData: keepPreviousData,
  })
}

export function groupCountQueryOptions(filter: ListFilter) {
  return queryOptions({
    queryKey: templateKeys.count('group', filter),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/template/group/count', { params: { query: listParams(filter) }, signal })),
    placeholderData: keepPreviousData,
  })
}

/** One entry; 404 and 403 come back as an `ApiError` the page shows as such. */
export function entryQueryOptions(id: string) {
  return queryOptions({
    queryKey: templateKeys.one('entry', id),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/template/entry/{id}', { params: { path: { id } }, signal })),
  })
}

export function groupQueryOptions(id: string) {
  return queryOptions({
    queryKey: templateKeys.one('group', id),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/template/group/{id}', { params: { path: { id } }, signal })),
  })
}

export async function createEntry(shared: boolean, input: NewEntryInput): Promise<TemplateEntry> {
  return unwrap(await api.PUT('/api/template/entry', { params: { query: { sharedTemplate: shared } }, body: input }))
}

export async function updateEntry(id: string, input: EntryInput): Promise<TemplateEntry> {
  return unwrap(await api.POST('/api/template/entry/{id}', { params: { path: { id } }, body: input }))
}

export async function deleteEntry(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/template/entry/{id}', { params: { path: { id } } })
  if (!response.ok) throw new ApiError(response.status, error)
}

export async function createGroup(shared: boolean, input: components['schemas']['NewGroupInput']): Promise<TemplateGroup> {
  return unwrap(await api.PUT('/api/template/group', { params: { query: { sharedTemplate: shared } }, body: input }))
}

export async function updateGroup(id: string, input: GroupInput): Promise<TemplateGroup> {
  return unwrap(await api.POST('/api/template/group/{id}', { params: { path: { id } }, body: input }))
}

export async function deleteGroup(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/template/group/{id}', { params: { path: { id } } })
  if (!response.ok) throw new ApiError(response.status, error)
}

/**
 * After a change: the lists of both kinds (a group shows its entries) and the other kind's single
 * templates are asked again; the changed template itself is already in the cache.
 */
export function refreshAfterChange(queryClient: QueryClient, kind: TemplateKind) {
  void queryClient.invalidateQueries({ queryKey: templateKeys.lists('entry') })
  void queryClient.invalidateQueries({ queryKey: templateKeys.lists('group') })
  if (kind === 'entry') void queryClient.invalidateQueries({ queryKey: ['templates', 'group', 'one'] })
}

/** The reason the api gave for refusing a change; it lives with the api client, as other forms show it too. */
export { refusalReason } from '@/api/client'

/** Deleting a template of either kind; the caller shows the toasts. */
export function useDeleteTemplate(kind: TemplateKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => (kind === 'entry' ? deleteEntry(id) : deleteGroup(id)),
    onSuccess: () => refreshAfterChange(queryClient, kind),
  })
}
