import { useAuth } from 'react-oidc-context'
import { Icon } from '@/components/Icon'
import { agreementTexts as t } from './texts'

/** The only screen for a user who has not accepted the gebruikersovereenkomst. */
export function AgreementScreen() {
  const auth = useAuth()
  const email = auth.user?.profile.email
  return (
    <main className="flex min-h-full items-center justify-center px-6 py-16">
      <div className="w-full max-w-xl rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <Icon name="shield" className="size-7" />
        </span>
        <h1 className="mt-6 text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
        <p className="mt-3 text-slate-900">{t.intro}</p>
        <p className="mt-3 leading-7 text-slate-600">{t.explanation}</p>
        <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-slate-100 pt-6">
          {email && (
            <p className="text-sm text-slate-500">
              {t.signedInAs} <span className="font-medium text-slate-700">{email}</span>
            </p>
          )}
          <button
            type="button"
            onClick={() => void auth.signoutRedirect()}
            className="rounded-md bg-white px-4 py-2 text-sm font-semibold text-slate-900 shadow-xs ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {t.signOut}
          </button>
        </div>
      </div>
    </main>
  )
}
