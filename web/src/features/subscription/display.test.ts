import { describe, expect, it } from 'vitest'
import {
  canCancel,
  cancellationTerms,
  isShown,
  isUnsettled,
  normaliseEmail,
  overFairUse,
  showExpired,
  showNextPayment,
  todayUtc,
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
