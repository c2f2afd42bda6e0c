import { queryOptions } from '@tanstack/react-query'
import { ApiError, api, unwrap } from '@/api/client'
import type { components } from '@/api/schema'

export type BillingPaymentDetails = components['schemas']['BillingPaymentDetails']
export type Discount = components['schemas']['Discount']

/** Every query of the page under one key, so one invalidation refreshes all lists after a change (§4). */
export const subscriptionKey = ['subscription'] as const

export const tiersQuery = () =>
  queryOptions({
    queryKey: [...subscriptionKey, 'tiers'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/payment/subscription/getTiers', { signal })),
    staleTime: 5 * 60_000,
  })

export const ownQuery = () =>
  queryOptions({
    queryKey: [...subscriptionKey, 'own'],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/payment/subscription/getSubscriptionForUser', {
          signal,
        }),
      ),
  })

export const linkedQuery = () =>
  queryOptions({
    queryKey: [...subscriptionKey, 'linked'],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/payment/subscription/getLinkedSubscriptionForUser', {
          signal,
        }),
      ),
  })

export const organisationQuery = () =>
  queryOptions({
    queryKey: [...subscriptionKey, 'organisation'],
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/api/user/getOrganizationSubscriptionForUser', {
          signal,
        }),
      ),
  })

export const paymentsQuery = () =>
  queryOptions({
    queryKey: [...subscriptionKey, 'payments'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/payment/subscription/getPaymentsForUser', { signal })),
  })

/**
 * Whether the user may use the consult and template pages: an active subscription of their own or
 * a seat on one, or an organisation subscription (the api's gate asks the same).
 */
export const accessQuery = () =>
  queryOptions({
    queryKey: [...subscriptionKey, 'access'],
    queryFn: async ({ signal }) => {
      const own = unwrap(
        await api.GET('/payment/subscription/hasUserActiveSubscription', {
          signal,
        }),
      )
      if (own) return true
      return unwrap(
        await api.GET('/api/user/hasUserActiveOrganizationSubscription', {
          signal,
        }),
      )
    },
    staleTime: 60_000,
  })

export async function applyDiscountCode(code: string): Promise<Discount | null> {
  return unwrap(await api.POST('/payment/subscription/applyDiscountCode', { body: code })) ?? null
}

export async function paymentLink(details: BillingPaymentDetails): Promise<string> {
  return unwrap(await api.POST('/payment/paymentinfo/getPaymentLink', { body: details })).href
}

export async function startTrial(details: BillingPaymentDetails): Promise<void> {
  unwrap(
    await api.POST('/payment/subscription/createTrialSubscription', {
      body: details,
    }),
  )
}

export async function cancelSubscription(subscriptionId: string): Promise<void> {
  const { response, error } = await api.POST('/payment/subscription/cancelSubscription/{subscription_id}', {
    params: { path: { subscription_id: subscriptionId } },
  })
  if (!response.ok) unwrap({ response, error })
}

/**
 * Adds a seat. An address without an account is refused with 409 `invitation_needed` until the
 * owner confirmed the invitation (`invite`).
 */
export async function addLinkedUser(subscriptionId: string, emailAddress: string, invite: boolean) {
  return unwrap(
    await api.POST('/payment/subscription/addUser', {
      params: { query: { subscriptionId, emailAddress, invite } },
    }),
  )
}

/** Whether a refusal of `addLinkedUser` asks the owner to confirm an invitation. */
export function needsInvitation(failure: unknown): boolean {
  return (
    failure instanceof ApiError &&
    failure.status === 409 &&
    typeof failure.body === 'object' &&
    failure.body !== null &&
    'error' in failure.body &&
    failure.body.error === 'invitation_needed'
  )
}

/** Cancels an open payment at the provider and here ('Annuleren'). */
export async function cancelPayment(paymentId: string): Promise<void> {
  const { response, error } = await api.POST('/payment/subscription/cancelPayment/{payment_id}', {
    params: { path: { payment_id: paymentId } },
  })
  if (!response.ok) unwrap({ response, error })
}

export async function removeLinkedUser(linkedSubscriptionId: string): Promise<void> {
  const { response, error } = await api.POST('/payment/subscription/deleteUser', { params: { query: { linkedSubscriptionId } } })
  if (!response.ok) unwrap({ response, error })
}

export async function invoiceLink(paymentId: string): Promise<string> {
  return unwrap(
    await api.POST('/payment/subscription/getInvoiceDownload', {
      body: paymentId,
    }),
  ).downloadLink
}
