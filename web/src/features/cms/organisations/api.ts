/** The queries and changes of Organisaties and Organisatie abonnementen (spec §7.2, under /api/cms). */
import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'
import { cmsKey, refreshAfter } from '../api'

type Schemas = components['schemas']
export type MainOrganisation = Schemas['MainOrganisation']
export type SubOrganisation = Schemas['SubOrganisation']
export type OrganisationInput = Schemas['OrganisationInput']
export type ActiveFilter = Schemas['ActiveFilter']
export type CmsOrganisationSubscription = Schemas['CmsOrganisationSubscription']
export type OrganisationProblem = Schemas['OrganisationProblem']
export type DurationSet = Schemas['DurationSet']
export type Synced = Schemas['Synced']

const keys = {
  organisations: [...cmsKey, 'organisations'],
  subscriptions: [...cmsKey, 'organisationSubscriptions'],
  statistics: [...cmsKey, 'statistics'],
} as const

/** A call answered without a body (204): an `ApiError` when it failed. */
function ok(result: { response: Response; error?: unknown }): void {
  if (!result.response.ok) unwrap(result)
}

// ---- Organisaties ----

export const organisationsQuery = (filter: { page: number; search: string; filter: ActiveFilter }) =>
  queryOptions({
    queryKey: [...keys.organisations, 'main', filter],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/api/cms/organizations/all', {
          params: { query: { page: filter.page, filter: filter.filter, search: filter.search || undefined } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  })

/** Adds a main organisation (no `id`) or changes one (the inline edit); 400 with the spec's message. */
export async function saveOrganisation(input: OrganisationInput): Promise<MainOrganisation> {
  return unwrap(await api.POST('/api/cms/organization', { body: input }))
}

/** Deletes a main organisation with its sub-organisations, their users' links and subscriptions. */
export async function deleteOrganisation(id: string): Promise<void> {
  ok(await api.POST('/api/cms/organizatioDelete/{organization_id}', { params: { path: { organization_id: id } } }))
}

/**
 * The sub-organisations of a main organisation, with their users; read again each time the modal
 * opens (an address may have become an account since).
 */
export const subOrganisationsQuery = (mainId: string) =>
  queryOptions({
    queryKey: [...keys.organisations, 'subs', mainId],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/cms/suborganizations/{main_organization_id}', { params: { path: { main_organization_id: mainId } }, signal })),
    staleTime: 0,
  })

/** Adds a sub-organisation (no `id`; a PRACTICE unless a type is given) or changes one. */
export async function saveSubOrganisation(mainId: string, input: OrganisationInput): Promise<SubOrganisation> {
  return unwrap(
    await api.POST('/api/cms/suborganizationLinkingtoMain/{main_organization_id}', {
      params: { path: { main_organization_id: mainId } },
      body: input,
    }),
  )
}

export async function deleteSubOrganisation(mainId: string, subId: string): Promise<void> {
  ok(
    await api.POST('/api/cms/suborganizatioDelete/{main_organization_id}/{sub_organization_id}', {
      params: { path: { main_organization_id: mainId, sub_organization_id: subId } },
    }),
  )
}

/** Adds an address (lower case) to a sub-organisation; an account when one has that address. */
export async function addSubOrganisationUser(
  mainId: string,
  subId: string,
  request: { email: string; admin: boolean; sendEmail: boolean },
): Promise<Schemas['UserAdded']> {
  return unwrap(
    await api.POST('/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}', {
      params: { path: { main_organization_id: mainId, sub_organization_id: subId } },
      body: request,
    }),
  )
}

/** Gives or takes a user's admin flag in a sub-organisation (the body is a JSON boolean). */
export async function setSubOrganisationAdmin(subId: string, userId: string, admin: boolean): Promise<void> {
  ok(
    await api.POST('/api/cms/suborganizationAdminUser/{sub_organization_id}/{user_id}', {
      params: { path: { sub_organization_id: subId, user_id: userId } },
      body: admin,
    }),
  )
}

/** Removes an account from a sub-organisation (the body is the sub-organisation's id as a JSON string). */
export async function removeSubOrganisationUser(subId: string, userId: string): Promise<void> {
  ok(await api.POST('/api/cms/suborganizationUserDelete/{user_id}', { params: { path: { user_id: userId } }, body: subId }))
}

/** Removes an address without an account from a sub-organisation. */
export async function removeSubOrganisationEmail(subId: string, email: string): Promise<void> {
  ok(await api.POST('/api/cms/suborganizationUserEmailDelete/{email}', { params: { path: { email } }, body: subId }))
}

/** Sets a sub-organisation's HIS; `null` for none. */
export async function setSubOrganisationHis(subId: string, hisId: string | null): Promise<SubOrganisation> {
  return unwrap(
    await api.POST('/api/cms/setHISforOrganization/{sub_organization_id}', {
      params: { path: { sub_organization_id: subId } },
      body: hisId,
    }),
  )
}

/** A term as the duration modals send it. */
type DurationBody = components['schemas']['DurationRequest']

/** The term of a main organisation (from now on kept on the main level); an empty start starts at once. */
export async function setMainDuration(mainId: string, body: DurationBody): Promise<DurationSet> {
  return unwrap(
    await api.POST('/api/cms/setDurationForMainOrganization/{main_organization_id}', {
      params: { path: { main_organization_id: mainId } },
      body,
    }),
  )
}

/** The term of a sub-organisation; 409 while its main organisation keeps the term. */
export async function setSubDuration(subId: string, body: DurationBody): Promise<DurationSet> {
  return unwrap(
    await api.POST('/api/cms/setDurationForSubOrganization/{sub_organization_id}', {
      params: { path: { sub_organization_id: subId } },
      body,
    }),
  )
}

// ---- Organisatie abonnementen ----

export const organisationSubscriptionsQuery = (filter: { page: number; activeOnly: boolean }) =>
  queryOptions({
    queryKey: [...keys.subscriptions, filter],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/cms/organizationsubscriptions/all', { params: { query: { page: filter.page, activeOnly: filter.activeOnly } }, signal })),
    placeholderData: keepPreviousData,
  })

/** The two warning lists: addresses waiting although their account exists, and accounts without an active subscription. */
export const organisationProblemsQuery = (kind: 'email' | 'linked') =>
  queryOptions({
    queryKey: [...keys.subscriptions, 'problems', kind],
    queryFn: async ({ signal }) =>
      unwrap(
        kind === 'email'
          ? await api.GET('/api/cms/getAllOrganizationSubscriptionsProblems/email', { signal })
          : await api.GET('/api/cms/getAllOrganizationSubscriptionsProblems/linked', { signal }),
      ),
  })

/** Deletes a duplicate organisation subscription; 409 when it is none. */
export async function deleteOrganisationSubscription(id: string): Promise<void> {
  ok(await api.POST('/api/cms/deleteOrganizationSubscription', { params: { query: { organizationSubscriptionId: id } } }))
}

/** Switches an organisation subscription on or off; one whose term has not started or is past stays off. */
export async function setOrganisationSubscriptionActive(id: string, active: boolean): Promise<CmsOrganisationSubscription> {
  return unwrap(await api.POST('/api/cms/organizationsubscription/active/{id}', { params: { path: { id } }, body: active }))
}

/** Gives an organisation subscription its own last day (`yyyy-mm-dd`), or with `''` its organisation's term again. */
export async function setOrganisationSubscriptionValidUntil(id: string, validUntil: string): Promise<CmsOrganisationSubscription> {
  return unwrap(await api.POST('/api/cms/organizationsubscription/valid/{id}', { params: { path: { id } }, body: validUntil }))
}

/** The sync (`tribe`): waiting addresses linked to the accounts that exist now, every term written again. */
export async function syncOrganisations(): Promise<Synced> {
  return unwrap(await api.POST('/api/cms/tribe'))
}

// ---- refreshing after a change (§4) ----

/**
 * Reads again what a change of an organisation touches: both tabs' lists, the users' organisations
 * and access (Gebruikers, HIS), the statistics' counts, and the audit log.
 */
export async function refreshOrganisations(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.organisations }),
    queryClient.invalidateQueries({ queryKey: keys.subscriptions }),
    queryClient.invalidateQueries({ queryKey: keys.statistics }),
    refreshAfter(queryClient, 'users', 'his'),
  ])
}
