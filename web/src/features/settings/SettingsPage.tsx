import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { profilePath } from '@/features/layout'
import { meQueryOptions } from '@/features/user'
import { settingsTexts as t } from './texts'
import { primaryButtonClass } from '@/components/buttonStyles'

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="px-6 py-4 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-900">{label}</dt>
      <dd className="mt-1 text-sm text-slate-700 sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  )
}

const yesNo = (value: boolean) => (value ? t.yes : t.no)

export function SettingsPage() {
  const { data: me } = useSuspenseQuery(meQueryOptions())
  return (
    <div className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.title}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>

      <section aria-labelledby="account" className="mt-8 overflow-hidden rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
        <h2 id="account" className="border-b border-slate-200 px-6 py-4 text-base font-semibold text-slate-900">
          {t.accountHeading}
        </h2>
        <dl className="divide-y divide-slate-100">
          <Row label={t.email}>{me.email}</Row>
          <Row label={t.username}>{me.username}</Row>
          <Row label={t.preferredName}>{me.preferredName ?? <span className="text-slate-500">{t.notFilledIn}</span>}</Row>
          <Row label={t.roles}>
            {me.roles.length === 0 ? (
              t.noRoles
            ) : (
              <ul className="flex flex-wrap gap-2">
                {me.roles.map((role) => (
                  <li key={role} className="rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700">
                    {role}
                  </li>
                ))}
              </ul>
            )}
          </Row>
          <Row label={t.agreement}>{yesNo(me.acceptedAgreement)}</Row>
          <Row label={t.staff}>{yesNo(me.isStaff)}</Row>
        </dl>
      </section>

      <Link
        to={profilePath}
        className={`mt-6 inline-block ${primaryButtonClass}`}
      >
        {t.editProfile}
      </Link>
    </div>
  )
}
