export { SubscriptionPage } from './SubscriptionPage'
export { requireSubscription } from './guard'
