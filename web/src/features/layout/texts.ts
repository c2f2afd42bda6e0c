export const layoutTexts = {
  brand: 'Spreekkamer',
  home: 'Spreekkamer, naar Overzicht',
  mainNavigation: 'Hoofdnavigatie',
  openMainMenu: 'Hoofdmenu openen',
  closeMainMenu: 'Hoofdmenu sluiten',
  openUserMenu: 'Gebruikersmenu openen',
  signedInAs: 'Ingelogd als',
  // The user menu and the log-out icon, as the specification writes them.
  yourProfile: 'Your Profile',
  settings: 'Settings',
  signOut: 'Sign out',
  logOut: 'Log out',
} as const

export const navLabels = {
  overview: 'Overzicht',
  templates: 'Templates',
  status: 'Status',
  faq: 'FAQ',
  subscriptions: 'Abonnementen',
  cms: 'CMS',
} as const
