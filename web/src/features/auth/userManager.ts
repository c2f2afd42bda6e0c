import { UserManager, WebStorageStateStore, type UserManagerSettings } from 'oidc-client-ts'
import { setAccessTokenSource } from '@/api/client'
import type { components } from '@/api/schema'

type PublicConfig = components['schemas']['PublicConfig']

/** The OpenID Connect settings for this origin: authorization code with PKCE, public client. */
export function oidcSettings(config: PublicConfig, origin: string): UserManagerSettings {
  return {
    authority: config.authority,
    client_id: config.clientId,
    scope: config.scope,
    redirect_uri: `${origin}/auth/callback`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.localStorage }),
    automaticSilentRenew: true,
  }
}

let current: { key: string; manager: UserManager } | null = null

/**
 * One user manager per provider and client, so silent renewal runs once however often React
 * renders; the api client takes its access token from it.
 */
export function userManagerFor(config: PublicConfig): UserManager {
  const key = `${config.authority} ${config.clientId} ${config.scope}`
  if (current?.key !== key) {
    current?.manager.stopSilentRenew()
    const manager = new UserManager(oidcSettings(config, window.location.origin))
    setAccessTokenSource(async () => (await manager.getUser())?.access_token)
    current = { key, manager }
  }
  return current.manager
}
