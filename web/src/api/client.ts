import createClient, { type Middleware } from 'openapi-fetch'
import type { paths } from './schema'

type TokenSource = () => Promise<string | null | undefined>

let accessToken: TokenSource = () => Promise.resolve(null)

/** Where the client finds the signed-in user's access token; set once the sign-in settings are known. */
export function setAccessTokenSource(source: TokenSource) {
  accessToken = source
}

const bearer: Middleware = {
  async onRequest({ request }) {
    const token = await accessToken()
    if (token) request.headers.set('Authorization', `Bearer ${token}`)
    return request
  },
}

/**
 * A consult, summary or template call without an active subscription answers 402 (the api's gate);
 * the page it came from cannot be used then, so the browser goes to /subscription.
 */
const subscriptionRequired: Middleware = {
  onResponse({ response }) {
    if (response.status === 402 && window.location.pathname !== '/subscription') window.location.assign('/subscription')
    return response
  },
}

/** The typed client of the api (same origin). Every call carries the bearer token when there is one. */
export const api = createClient<paths>({ baseUrl: '' })
api.use(bearer)
api.use(subscriptionRequired)

/** The same client without the token, for the public calls that must not carry one. */
export const publicApi = createClient<paths>({ baseUrl: '' })

/** A call the api answered with an error status. */
export class ApiError extends Error {
  readonly status: number
  readonly body: unknown

  constructor(status: number, body: unknown) {
    const message =
      typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string'
        ? body.message
        : `De server antwoordde met status ${status}`
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.body = body
  }
}

/** The body of a successful call, or an `ApiError`. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data
  throw new ApiError(result.response.status, result.error)
}

/** The reason the api gave for refusing a change (a 400 with a Dutch message), to show with the failure. */
export function refusalReason(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined
  const body = error.body
  return typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message
    ? body.message
    : undefined
}
