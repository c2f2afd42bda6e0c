import { describe, expect, it } from 'vitest'
import {
  canCancel,
  cancellationTerms,
  isExpiredOpen,
  isResumable,
  isShown,
  isUnderWay,
  isUnsettled,
  justStarted,
  lastFailure,
  normaliseEmail,
  overFairUse,
  pollInterval,
  seatLabel,
  showExpired,
  showNextPayment,
  todayUtc,
  type Payment,
} from './display'

describe('display rules', () => {
  it('hides a subscription past its valid-until and shows its last day', () => {
    expect(isShown('2026-11-23', '2026-11-24')).toBe(false)
    expect(isShown('2026-11-24', '2026-11-24')).toBe(true)
    expect(isShown(null, '2026-11-24')).toBe(true)
  })

  it('shows the expired message only when there were subscriptions and none is active', () => {
    expect(showExpired([], [], [])).toBe(false)
    expect(showExpired([{ isActive: false }], [], [{ active: false }])).toBe(true)
    expect(showExpired([{ isActive: false }], [{ active: true }], [])).toBe(false)
  })

  it('shows the next payment only for an active paid subscription with a date other than its end', () => {
    const s = {
      isActive: true,
      isTrial: false,
      nextPaymentDate: '2026-12-24',
      validUntil: '2026-12-23',
    }
    expect(showNextPayment(s)).toBe(true)
    expect(showNextPayment({ ...s, nextPaymentDate: null })).toBe(false)
    expect(showNextPayment({ ...s, nextPaymentDate: '2026-12-23' })).toBe(false)
    expect(showNextPayment({ ...s, isActive: false })).toBe(false)
  })

  it('offers cancelling only for active, non-cancelled, paid subscriptions', () => {
    expect(canCancel({ isActive: true, canceledAt: null, isTrial: false })).toBe(true)
    expect(
      canCancel({
        isActive: true,
        canceledAt: '2026-11-24T10:00:00Z',
        isTrial: false,
      }),
    ).toBe(false)
    expect(canCancel({ isActive: false, canceledAt: null, isTrial: false })).toBe(false)
    expect(canCancel({ isActive: true, canceledAt: null, isTrial: true })).toBe(false)
  })

  it('names the cancellation terms by interval', () => {
    const t = {
      monthlyTerms: 'Maandelijks opzegbaar',
      yearlyTerms: 'Jaarlijks opzegbaar',
    }
    expect(cancellationTerms(1, t)).toBe('Maandelijks opzegbaar')
    expect(cancellationTerms(12, t)).toBe('Jaarlijks opzegbaar')
  })

  it('warns when the linked users outnumber the purchased users', () => {
    const seat = { id: 'x' }
    expect(overFairUse({ userAmount: 3, linkedSubscriptions: [seat, seat, seat] })).toBe(false)
    expect(
      overFairUse({
        userAmount: 3,
        linkedSubscriptions: [seat, seat, seat, seat],
      }),
    ).toBe(true)
  })

  it('knows which payments may still change, and normalises addresses', () => {
    expect(isUnsettled('OPEN')).toBe(true)
    expect(isUnsettled('PAID')).toBe(false)
    expect(normaliseEmail('  Poh@Example.NL ')).toBe('poh@example.nl')
    expect(todayUtc(new Date('2026-11-24T23:30:00Z'))).toBe('2026-11-24')
  })
})

describe('payments under way, expired and failed', () => {
  const at = (iso: string) => Date.parse(iso)
  const payment = (over: Partial<Payment>): Payment =>
    ({
      id: 'p',
      paymentStatus: 'OPEN',
      isFirstPayment: true,
      createdAt: '2026-11-28T10:00:00Z',
      expiresAt: '2026-11-28T10:15:00Z',
      checkoutUrl: 'https://pay.example/p',
      ...over,
    }) as Payment

  it('shows an open payment past its expiry as expired, not under way or resumable', () => {
    const open = payment({})
    expect(isExpiredOpen(open, at('2026-11-28T10:14:59Z'))).toBe(false)
    expect(isUnderWay(open, at('2026-11-28T10:14:59Z'))).toBe(true)
    expect(isResumable(open, at('2026-11-28T10:14:59Z'))).toBe(true)
    expect(isExpiredOpen(open, at('2026-11-28T10:15:00Z'))).toBe(true)
    expect(isUnderWay(open, at('2026-11-28T10:15:00Z'))).toBe(false)
    expect(isResumable(open, at('2026-11-28T10:15:00Z'))).toBe(false)
    expect(isUnderWay(payment({ paymentStatus: 'PENDING', expiresAt: null }), at('2026-11-29T00:00:00Z'))).toBe(true)
    expect(isResumable(payment({ checkoutUrl: null }), at('2026-11-28T10:01:00Z'))).toBe(false)
  })

  it('names the newest unpaid first payment as failed whatever else is open, until a newer one is paid', () => {
    const now = at('2026-11-28T10:05:00Z')
    const failed = payment({ id: 'failed', paymentStatus: 'FAILED', createdAt: '2026-11-28T09:00:00Z' })
    const open = payment({ id: 'open' })
    expect(lastFailure([open, failed], now)?.id).toBe('failed')
    expect(lastFailure([payment({ id: 'canceled', paymentStatus: 'CANCELED' }), failed], now)?.id).toBe('canceled')
    expect(lastFailure([payment({ id: 'paid', paymentStatus: 'PAID' }), failed], now)).toBeUndefined()
    expect(lastFailure([open], now)).toBeUndefined()
    expect(lastFailure([open], at('2026-11-28T11:00:00Z'))?.id).toBe('open')
    // a renewal is not the user's attempt to buy
    expect(lastFailure([payment({ paymentStatus: 'FAILED', isFirstPayment: false })], now)).toBeUndefined()
  })

  it('waits only for first payments made since the page sent the browser to the checkout', () => {
    const now = at('2026-11-28T10:05:00Z')
    const open = payment({})
    expect(justStarted([open], null, now)).toEqual([])
    expect(justStarted([open], at('2026-11-28T10:00:00Z'), now)).toEqual([open])
    expect(justStarted([open], at('2026-11-28T11:00:00Z'), now)).toEqual([])
    expect(justStarted([open], at('2026-11-28T10:00:00Z'), at('2026-11-28T10:20:00Z'))).toEqual([])
    expect(justStarted([payment({ paymentStatus: 'PAID' })], at('2026-11-28T10:00:00Z'), now)).toEqual([])
  })

  it('asks every 2 s for a minute, then less often', () => {
    expect(pollInterval(0)).toBe(2_000)
    expect(pollInterval(59_999)).toBe(2_000)
    expect(pollInterval(60_000)).toBe(10_000)
    expect(pollInterval(5 * 60_000)).toBe(30_000)
  })

  it('names a seat by its colleague', () => {
    expect(seatLabel({ name: 'Bram Jansen', emailAddress: 'bram@praktijk.nl' })).toBe('Bram Jansen (bram@praktijk.nl)')
    expect(seatLabel({ name: null, emailAddress: 'bram@praktijk.nl' })).toBe('bram@praktijk.nl')
  })
})
