/** The layout feature's public entry: where the navigation's profile link goes. */
export { profilePath } from './navigation'
export { stackedTable } from './stackedTable'
