/** The retiring feature's public entry: the banner the app frame shows. */
export { RetiringBanner } from './RetiringBanner'
