import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { secondaryButtonClass } from '@/components/buttonStyles'
import { userOrganisationSubscriptionsQuery, userPaymentsQuery, userSubscriptionsQuery, type UserRow } from '../api'
import { day, euros, term } from '../format'
import { addressLine, byActiveThenValidUntil, paidForText, showsNextPayment, userAmountText } from '../rules'
import { cmsTexts as t } from '../texts'
import { ActiveBadge, Modal } from './ui'

const i = t.info

/** 'Gebruiker informatie voor {email}': the user's subscriptions, trial and organisation ones, and payments. */
export function UserInfoDialog({ user, onClose }: { user: UserRow['userInfo'] | null; onClose: () => void }) {
  const id = user?.id ?? ''
  const subscriptions = useQuery({ ...userSubscriptionsQuery(id), enabled: user !== null })
  const organisation = useQuery({ ...userOrganisationSubscriptionsQuery(id), enabled: user !== null })
  const payments = useQuery({ ...userPaymentsQuery(id), enabled: user !== null })

  const paid = byActiveThenValidUntil((subscriptions.data ?? []).filter((s) => !s.isTrial).map((s) => ({ ...s, active: s.isActive })))
  const others = byActiveThenValidUntil([
    ...(subscriptions.data ?? [])
      .filter((s) => s.isTrial)
      .map((s) => ({ key: s.id, active: s.isActive, description: s.description, from: s.createdAt, validUntil: s.validUntil, kind: i.trial })),
    // an organisation subscription without a start date shows its valid-until only
    ...(organisation.data ?? []).map((s) => ({
      key: s.id,
      active: s.active,
      description: s.description,
      from: s.startDate ?? null,
      validUntil: s.validUntil,
      kind: i.organisation,
    })),
  ])

  return (
    <Modal open={user !== null} title={i.title(user?.email ?? '')} onClose={onClose} wide>
      <Section title={i.subscriptions} loading={subscriptions.isPending} failed={subscriptions.isError} empty={paid.length === 0 ? i.noSubscriptions : null}>
        {paid.map((s) => (
          <Item key={s.id} title={s.description} active={s.isActive}>
            <Fact>{userAmountText(s.userAmount, s.isIndividual)}</Fact>
            <Fact label={i.term}>{term(s.createdAt, s.validUntil)}</Fact>
            {showsNextPayment(s) && <Fact label={i.nextPayment}>{day(s.nextPaymentDate)}</Fact>}
            {s.canceledAt && <Fact label={i.canceledOn}>{day(s.canceledAt)}</Fact>}
          </Item>
        ))}
      </Section>

      <Section
        title={i.otherSubscriptions}
        loading={subscriptions.isPending || organisation.isPending}
        failed={subscriptions.isError || organisation.isError}
        empty={others.length === 0 ? i.noSubscriptions : null}
      >
        {others.map((s) => (
          <Item key={s.key} title={s.description} active={s.active} note={s.kind}>
            {s.from ? <Fact label={i.term}>{term(s.from, s.validUntil)}</Fact> : <Fact label={i.validUntil}>{day(s.validUntil)}</Fact>}
          </Item>
        ))}
      </Section>

      <Section title={i.payments} loading={payments.isPending} failed={payments.isError} empty={payments.data?.length === 0 ? i.noPayments : null}>
        {(payments.data ?? []).map((p) => (
          <li key={p.id} className="px-4 py-3">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <p className="font-medium text-slate-900">{p.description}</p>
              <p className="font-semibold whitespace-nowrap text-slate-900">{euros(p.amountCents)}</p>
            </div>
            <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
              <Fact>{userAmountText(p.userAmount, true)}</Fact>
              <Fact label={i.status}>{t.paymentStatus[p.paymentStatus]}</Fact>
              <Fact label={i.date}>{day(p.createdAt)}</Fact>
              {p.paymentStatus === 'PAID' && <Fact>{paidForText(p.intervalMonths)}</Fact>}
              <Fact label={i.practice}>{p.practiceName || t.none}</Fact>
              <Fact label={i.contact}>{p.contactName || t.none}</Fact>
              <Fact label={i.address}>{addressLine(p) || t.none}</Fact>
              <Fact label={i.postcode}>{p.postcode || t.none}</Fact>
              <Fact label={i.city}>{p.city || t.none}</Fact>
              <Fact label={i.phone}>{p.phoneNumber || t.none}</Fact>
              <Fact label={i.kvk}>{p.kvkNumber || t.none}</Fact>
            </dl>
          </li>
        ))}
      </Section>

      <div className="mt-6 flex flex-row-reverse">
        <button type="button" onClick={onClose} className={secondaryButtonClass}>
          {t.close}
        </button>
      </div>
    </Modal>
  )
}

function Section({
  title,
  loading,
  failed,
  empty,
  children,
}: {
  title: string
  loading: boolean
  failed: boolean
  empty: string | null
  children: ReactNode
}) {
  return (
    <section className="mt-6">
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      {failed ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {t.loadFailed}
        </p>
      ) : loading ? (
        <p className="mt-2 text-sm text-slate-500">{t.loading}</p>
      ) : empty ? (
        <p className="mt-2 text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100 rounded-lg text-sm ring-1 ring-slate-200">{children}</ul>
      )}
    </section>
  )
}

function Item({ title, active, note, children }: { title: string; active: boolean; note?: string; children: ReactNode }) {
  return (
    <li className="px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-slate-900">
          {title}
          {note && <span className="ml-2 text-xs font-normal text-slate-500">({note})</span>}
        </p>
        <ActiveBadge active={active} />
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">{children}</dl>
    </li>
  )
}

/** One fact: a label and its value; without a label the value stands alone. */
function Fact({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-2">
      {label && <dt className="shrink-0 text-slate-500">{label}:</dt>}
      <dd className="min-w-0 break-words text-slate-800">{children}</dd>
    </div>
  )
}
