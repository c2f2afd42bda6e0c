import { navLabels } from './texts'

export interface NavLink {
  // A plain string: most targets are routes that later parts of the application add.
  to: string
  label: string
}

/** The main links of the navigation bar. */
export const mainLinks: readonly NavLink[] = [
  { to: '/', label: navLabels.overview },
  { to: '/template', label: navLabels.templates },
  { to: '/status', label: navLabels.status },
  { to: '/faq', label: navLabels.faq },
  { to: '/subscription', label: navLabels.subscriptions },
]

/** The links only staff see, after the main ones. */
export const staffLinks: readonly NavLink[] = [{ to: '/cms', label: navLabels.cms }]

/** 'Your Profile' opens the profile questionnaire. */
export const profilePath: string = '/onboarding/'
