import { useNavigate, useSearch } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useAuth } from 'react-oidc-context'
import { api, refusalReason, unwrap } from '@/api/client'
import { primaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { hasAcceptedAgreement, safeReturnTo } from '@/features/auth'
import { AGREEMENT_PDF, rememberDownload, wasDownloaded } from './download'
import { agreementTexts as t } from './texts'

type Step = { kind: 'idle' } | { kind: 'busy' } | { kind: 'accepted'; to: string } | { kind: 'failed'; reason?: string }

/** The only screen for a user who has not accepted the gebruikersovereenkomst. */
export function AgreementScreen() {
  const auth = useAuth()
  const navigate = useNavigate()
  const search: { returnTo?: unknown } = useSearch({ strict: false })
  const email = auth.user?.profile.email
  const subject = auth.user?.profile.sub
  const [downloaded, setDownloaded] = useState(() => wasDownloaded(subject))
  const [step, setStep] = useState<Step>({ kind: 'idle' })
  const busy = step.kind === 'busy' || step.kind === 'accepted'
  const claimed = hasAcceptedAgreement(auth.user?.profile)

  // Once the renewed session is on screen (and so in the router's context), go where the user wanted.
  useEffect(() => {
    if (step.kind === 'accepted' && claimed) void navigate({ href: step.to, replace: true })
  }, [step, claimed, navigate])

  const markDownloaded = () => {
    rememberDownload(subject)
    setDownloaded(true)
  }

  const accept = async () => {
    setStep({ kind: 'busy' })
    try {
      unwrap(await api.POST('/api/user/agreement'))
    } catch (error) {
      setStep({ kind: 'failed', reason: refusalReason(error) })
      return
    }
    // The next token carries `accepted-agreement`; without it, a fresh page load signs in anew.
    const renewed = await auth.signinSilent().catch(() => null)
    if (renewed && hasAcceptedAgreement(renewed.profile)) setStep({ kind: 'accepted', to: safeReturnTo(search.returnTo) })
    else window.location.reload()
  }

  return (
    <main className="flex min-h-full items-center justify-center px-6 py-16">
      <div className="w-full max-w-xl rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <Icon name="shield" className="size-7" />
        </span>
        <h1 className="mt-6 text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
        <p className="mt-3 text-slate-900">{t.intro}</p>
        <p className="mt-3 leading-7 text-slate-600">{t.explanation}</p>

        <div className="mt-6 flex flex-wrap items-center gap-3">
          <a
            href={AGREEMENT_PDF}
            download
            onClick={markDownloaded}
            className="inline-flex items-center gap-2 rounded-md bg-white px-4 py-2 text-sm font-semibold text-brand-700 shadow-xs ring-1 ring-slate-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <Icon name="document" className="size-5" />
            {t.download}
          </a>
          {downloaded && (
            <span className="inline-flex items-center gap-1 text-sm text-slate-600">
              <Icon name="checkCircle" className="size-5 text-brand-700" />
              {t.downloaded}
            </span>
          )}
        </div>

        {step.kind === 'failed' && (
          <div role="alert" className="mt-6 flex gap-3 rounded-md bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-200">
            <Icon name="xCircle" className="size-5 shrink-0 text-red-600" />
            <div>
              <p className="font-semibold">{t.acceptFailed}</p>
              {step.reason && <p className="mt-1">{step.reason}</p>}
            </div>
          </div>
        )}

        <div className="mt-6">
          <button
            type="button"
            onClick={() => void accept()}
            disabled={!downloaded || busy}
            aria-describedby={downloaded ? undefined : 'overeenkomst-hint'}
            className={`${primaryButtonClass} disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600 disabled:shadow-none`}
          >
            {busy ? t.accepting : t.accept}
          </button>
          {!downloaded && (
            <p id="overeenkomst-hint" className="mt-2 text-sm text-slate-500">
              {t.downloadFirst}
            </p>
          )}
        </div>

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
