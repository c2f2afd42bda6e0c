/** The transitional and failure texts of signing in and out, as the specification writes them. */
export const authTexts = {
  loading: 'Auth is loading...',
  signingIn: 'Signing you in ...',
  signingOut: 'Signing you out ...',
  loginFailed: 'Login failed',
  loginFailedHelp: 'Het inloggen is niet gelukt. Probeer het opnieuw; blijft het misgaan, neem dan contact met ons op.',
  retry: 'Opnieuw inloggen',
  configFailed: 'De inloggegevens van Spreekkamer konden niet worden geladen. Controleer je verbinding en probeer het opnieuw.',
  reload: 'Opnieuw proberen',
} as const
