/** The errors feature's public entry: the error and not-found pages. */
export { ErrorPage } from './ErrorPage'
export { NotFoundPage } from './NotFoundPage'
