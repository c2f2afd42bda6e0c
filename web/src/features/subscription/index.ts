export { SubscriptionPage } from './SubscriptionPage'
export { requireSubscription } from './guard'
// the CMS shows money and checks postcodes as this page does
export { firstAddressProblem, isPostcode } from './billing'
export { formatEuros } from './pricing'
