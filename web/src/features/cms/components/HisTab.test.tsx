import { QueryClient } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderAt } from '@/test/renderRoute'
import { HisTab } from './HisTab'

const calls = vi.hoisted(() => ({ posted: [] as unknown[], deleted: [] as string[] }))

vi.mock('@/api/client', async (original) => {
  const actual = await original<typeof import('@/api/client')>()
  const answer = (status: number, body: unknown) =>
    Promise.resolve(status < 300 ? { response: new Response(null, { status }), data: body } : { response: new Response(null, { status }), error: body })
  const his = [
    { id: 'h1', name: 'CGM Huisarts', users: 0 },
    { id: 'h2', name: 'Medicom', users: 2 },
  ]
  const user = (email: string, subscriptionType: string, endDate: string | null, linkedToOrganization: boolean) => ({
    userInfo: { id: email, email, firebaseUid: email, createdAt: '2026-01-01T10:00:00Z', hasActiveOrganizationSubscription: false },
    userSubscriptionInformation: { linkedToOrganization, endDate, subscriptionType },
  })
  return {
    ...actual,
    api: {
      ...actual.api,
      GET: vi.fn((path: string, options: { params?: { query?: { his?: string } } }) => {
        if (path === '/api/cms/his/allEdit') return answer(200, his)
        if (path === '/api/cms/getHISUserSubscriptions') {
          const rows =
            options.params?.query?.his === 'h2'
              ? [user('anne@praktijk.nl', 'EXPIRED', '2026-03-01', false), user('bram@praktijk.nl', 'PAID', '2026-11-21', true)]
              : []
          return answer(200, { rows, total: rows.length, page: 0, pageSize: 50 })
        }
        return answer(500, { error: 'internal', message: 'Er ging iets mis' })
      }),
      POST: vi.fn((_path: string, options: { body: { name: string } }) => {
        calls.posted.push(options.body)
        return options.body.name.toLowerCase() === 'medicom'
          ? answer(409, { error: 'conflict', message: 'Deze HIS bestaat al.' })
          : answer(201, { id: 'h3', name: options.body.name })
      }),
      DELETE: vi.fn((_path: string, options: { params: { path: { id: string } } }) => {
        calls.deleted.push(options.params.path.id)
        return answer(409, { error: 'conflict', message: 'Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS' })
      }),
    },
  }
})

beforeEach(() => {
  calls.posted.length = 0
  calls.deleted.length = 0
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the HIS tab', () => {
  it('lists the HIS’en with their users and shows the chosen one’s users, those without access first and red', async () => {
    renderAt('/cms', HisTab, new QueryClient())
    const select = await screen.findByRole('combobox', { name: 'HIS' })
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['CGM Huisarts (0 gebruikers)', 'Medicom (2 gebruikers)']))
    expect(await within(screen.getByRole('table', { name: 'Gebruikers van CGM Huisarts' })).findByText('Geen resultaten.')).toBeInTheDocument()

    await userEvent.selectOptions(select, 'Medicom (2 gebruikers)')
    const table = screen.getByRole('table', { name: 'Gebruikers van Medicom' })
    await within(table).findByText('anne@praktijk.nl')
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Gebruiker',
      'Gekoppeld aan organisatie',
      'Einddatum',
      'Soort abonnement',
    ])
    const [, expired, paid] = within(table).getAllByRole('row')
    expect(within(expired).getAllByRole('cell').map((td) => td.textContent)).toEqual(['anne@praktijk.nl', 'Nee', '1 maart 2026', 'Verlopen'])
    expect(expired).toHaveClass('bg-red-50/70')
    expect(within(expired).getByText('Verlopen')).toHaveClass('text-red-700')
    expect(within(paid).getAllByRole('cell').map((td) => td.textContent)).toEqual(['bram@praktijk.nl', 'Ja', '21 november 2026', 'Betaald'])
    expect(paid).not.toHaveClass('bg-red-50/70')
    expect(within(paid).getByText('Betaald')).toHaveClass('text-emerald-700')
  })

  it('asks before deleting, and says in red for 10 seconds that a HIS with users cannot be deleted', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    renderAt('/cms', HisTab, new QueryClient())
    const select = await screen.findByRole('combobox', { name: 'HIS' })
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2))
    await user.selectOptions(select, 'Medicom (2 gebruikers)')

    await user.click(screen.getByRole('button', { name: 'HIS Medicom verwijderen' }))
    const dialog = await screen.findByRole('dialog', { name: 'HIS verwijderen?' })
    await user.click(within(dialog).getByRole('button', { name: 'Verwijderen' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS')
    expect(alert).toHaveClass('text-red-700')
    expect(calls.deleted).toEqual(['h2'])

    await act(() => vi.advanceTimersByTimeAsync(9_000))
    expect(screen.getByRole('alert')).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('adds a HIS with Enter, after saying what is wrong in Dutch', async () => {
    renderAt('/cms', HisTab, new QueryClient())
    const field = await screen.findByPlaceholderText('Nieuwe HIS..')
    await userEvent.click(screen.getByRole('button', { name: 'Toevoegen' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Geen naam voor de HIS ingevuld.')
    expect(calls.posted).toEqual([])

    await userEvent.type(field, 'medicom{Enter}')
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Deze HIS bestaat al.'))
    expect(field).toHaveAttribute('aria-invalid', 'true')

    await userEvent.clear(field)
    await userEvent.type(field, '  Nieuw HIS {Enter}')
    await waitFor(() => expect(calls.posted).toEqual([{ name: 'medicom' }, { name: 'Nieuw HIS' }]))
    await waitFor(() => expect(field).toHaveValue(''))
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
