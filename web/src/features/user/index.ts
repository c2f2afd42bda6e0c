/** The user feature's public entry: the signed-in user's account. */
export { meQueryOptions } from './api'
