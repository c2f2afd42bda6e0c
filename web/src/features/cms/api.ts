import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

type Schemas = components['schemas']
export type UserRow = Schemas['UserRow']
export type His = Schemas['His']
export type HisEdit = Schemas['HisEdit']
export type HisUser = Schemas['HisUser']
export type AccessType = Schemas['AccessType']
export type CmsSubscription = Schemas['CmsSubscription']
export type CmsPayment = Schemas['CmsPayment']
export type PaymentStatus = Schemas['PaymentStatus']
export type Statistics = Schemas['Statistics']
export type StatisticsDay = Schemas['Day']
export type AuditRow = Schemas['Shown']
export type JobProblem = Schemas['JobProblem']
export type JobQueue = Schemas['Queue']
export type SweepRun = Schemas['SweepRun']

/** Every query of the CMS starts with this key. */
export const cmsKey = ['cms'] as const
const keys = {
  access: [...cmsKey, 'access'],
  users: [...cmsKey, 'users'],
  his: [...cmsKey, 'his'],
  user: [...cmsKey, 'user'],
  subscriptions: [...cmsKey, 'subscriptions'],
  subscriptionProblems: [...cmsKey, 'subscriptionProblems'],
  payments: [...cmsKey, 'payments'],
  statistics: [...cmsKey, 'statistics'],
  audit: [...cmsKey, 'auditLog'],
  jobs: [...cmsKey, 'jobs'],
} as const

/** The CMS access check (`POST /api/cms`): asked on every visit, never retried. */
export const accessQuery = () =>
  queryOptions({
    queryKey: keys.access,
    queryFn: async ({ signal }) => unwrap(await api.POST('/api/cms', { signal })),
    retry: false,
    gcTime: 0,
    staleTime: 0,
  })

// ---- Gebruikers ----

export const usersQuery = (filter: { page: number; search: string; his: string }) =>
  queryOptions({
    queryKey: [...keys.users, filter],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/api/cms/users/all', {
          params: { query: { page: filter.page, search: filter.search || undefined, his: filter.his === 'ALL' ? undefined : filter.his } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  })

export const hisQuery = () =>
  queryOptions({
    queryKey: keys.his,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/cms/his/all', { signal })),
    staleTime: 60_000,
  })

/** Every HIS with its number of users (the HIS tab); under the HIS key, so a change to the list refreshes both. */
export const hisEditQuery = () =>
  queryOptions({
    queryKey: [...keys.his, 'edit'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/cms/his/allEdit', { signal })),
  })

/** The users of one HIS with their access, EXPIRED and NONE first; another page keeps the rows shown, another HIS does not. */
export const hisUsersQuery = (filter: { his: string; page: number }) =>
  queryOptions({
    queryKey: [...keys.his, 'users', filter],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/cms/getHISUserSubscriptions', { params: { query: { his: filter.his, page: filter.page } }, signal })),
    placeholderData: (previous, previousQuery) => ((previousQuery?.queryKey[3] as typeof filter | undefined)?.his === filter.his ? previous : undefined),
  })

/** Adds a HIS ('Nieuwe HIS..'); the api refuses an empty name (400) and one that exists (409), in Dutch. */
export async function addHis(name: string): Promise<His> {
  return unwrap(await api.POST('/api/cms/HIS', { body: { name } }))
}

/** Deletes a HIS; 409 while users are linked to it. */
export async function deleteHis(id: string): Promise<void> {
  const { response, error } = await api.DELETE('/api/cms/his/{id}', { params: { path: { id } } })
  if (!response.ok) unwrap({ response, error })
}

export async function setHisForUser(userId: string, hisId: string | null): Promise<void> {
  const { response, error } = await api.POST('/api/cms/setHISforUser/{user_id}', {
    params: { path: { user_id: userId } },
    body: hisId,
  })
  if (!response.ok) unwrap({ response, error })
}

export const userSubscriptionsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...keys.user, userId, 'subscriptions'],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/payment/manage/getSubscriptionForCMSUser/{user_id}', { params: { path: { user_id: userId } }, signal })),
  })

export const userOrganisationSubscriptionsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...keys.user, userId, 'organisationSubscriptions'],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/cms/getOrganizationSubscriptionForCMSUser/{user_id}', { params: { path: { user_id: userId } }, signal })),
  })

export const userPaymentsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...keys.user, userId, 'payments'],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/payment/manage/getPaymentsForCMSUser/{user_id}', { params: { path: { user_id: userId } }, signal })),
  })

// ---- Gebruikers abonnementen ----

export const subscriptionsQuery = (filter: { page: number; search: string; paidOnly: boolean; activeOnly: boolean }) =>
  queryOptions({
    queryKey: [...keys.subscriptions, filter],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/payment/manage/getAllSubscriptions', {
          params: {
            query: { page: filter.page, search: filter.search || undefined, paidOnly: filter.paidOnly, activeOnly: filter.activeOnly },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  })

export const subscriptionProblemsQuery = () =>
  queryOptions({
    queryKey: keys.subscriptionProblems,
    queryFn: async ({ signal }) => unwrap(await api.GET('/payment/manage/getAllSubscriptionProblems', { signal })),
  })

export async function setSubscriptionActive(id: string, active: boolean): Promise<CmsSubscription> {
  return unwrap(await api.POST('/payment/manage/subscription/active/{id}', { params: { path: { id } }, body: active }))
}

export async function setSubscriptionValidUntil(id: string, validUntil: string): Promise<CmsSubscription> {
  return unwrap(await api.POST('/payment/manage/subscription/valid/{id}', { params: { path: { id } }, body: validUntil }))
}

export async function cancelSubscription(id: string): Promise<CmsSubscription> {
  return unwrap(await api.POST('/payment/manage/cancelSubscription/{id}', { params: { path: { id } } }))
}

export async function renewSubscription(startDate: string, firstPaymentId: string): Promise<CmsSubscription> {
  return unwrap(await api.POST('/payment/manage/renewSubscription', { body: { startDate, firstPaymentId } }))
}

// ---- Betalingen ----

export const paymentsQuery = (filter: { page: number; search: string; status: string }) =>
  queryOptions({
    queryKey: [...keys.payments, filter],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/payment/manage/getAllPayments', {
          params: { query: { page: filter.page, search: filter.search || undefined, status: filter.status } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  })

export async function editPayment(details: Schemas['InvoiceDetails']): Promise<CmsPayment> {
  return unwrap(await api.POST('/payment/manage/editPayment', { body: details }))
}

/** Starts the bookkeeping job of a payment ('Moneybird contact maken' or 'Factuur maken'); its id. */
export async function startBookkeeping(action: 'contact' | 'invoice', paymentId: string): Promise<string> {
  const options = { params: { path: { id: paymentId } } }
  const queued =
    action === 'contact'
      ? unwrap(await api.POST('/payment/manage/payment/contact/{id}', options))
      : unwrap(await api.POST('/payment/manage/payment/invoice/{id}', options))
  return queued.jobId
}

// ---- Statistieken ----

export const statisticsQuery = () =>
  queryOptions({
    queryKey: keys.statistics,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/cms/statistics', { signal })),
    refetchInterval: 60_000,
  })

export const dailyQuery = () =>
  queryOptions({
    queryKey: [...keys.statistics, 'daily'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/cms/statistics/daily', { signal })),
    staleTime: 5 * 60_000,
  })

// ---- Auditlog ----

export const auditQuery = (filter: { page: number; search: string }) =>
  queryOptions({
    queryKey: [...keys.audit, filter],
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/cms/auditLog/all', { params: { query: { page: filter.page, search: filter.search || undefined } }, signal })),
    placeholderData: keepPreviousData,
  })

// ---- Achtergrondtaken ----

export const jobProblemsQuery = (page: number) =>
  queryOptions({
    queryKey: [...keys.jobs, 'problems', page],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/cms/jobs/problems', { params: { query: { page } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  })

export const jobsOverviewQuery = () =>
  queryOptions({
    queryKey: [...keys.jobs, 'overview'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/cms/jobs/overview', { signal })),
    refetchInterval: 15_000,
  })

export async function retryJob(id: string): Promise<string> {
  return unwrap(await api.POST('/api/cms/jobs/{id}/retry', { params: { path: { id } } })).jobId
}

// ---- refreshing after a change (§4: after every mutation the lists are read again) ----

/** What a change touched; the audit log always (every staff change writes it). */
export type Touched = 'users' | 'his' | 'subscriptions' | 'payments' | 'jobs'

export function refreshAfter(queryClient: QueryClient, ...touched: Touched[]): Promise<void> {
  const lists: (readonly string[])[] = [keys.audit]
  for (const what of touched) {
    if (what === 'users') lists.push(keys.users, keys.user)
    // the HIS list of Gebruikers, the HIS tab's list with its counts, and its tables
    if (what === 'his') lists.push(keys.his)
    if (what === 'subscriptions') lists.push(keys.subscriptions, keys.subscriptionProblems, keys.user, keys.statistics)
    if (what === 'payments') lists.push(keys.payments, keys.user)
    if (what === 'jobs') lists.push(keys.jobs, keys.payments)
  }
  return Promise.all(lists.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined)
}
