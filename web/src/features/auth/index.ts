/** The auth feature's public entry: what other features may use of it. */
export { hasAcceptedAgreement } from './agreement'
export { publicConfigQueryOptions } from './api'
export { FullPageMessage } from './components/FullPageMessage'
export { safeReturnTo } from './returnTo'
