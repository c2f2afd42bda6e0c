import { QueryClient } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider } from '@/components/Toast'
import { renderAt } from '@/test/renderRoute'
import { OrganisationSubscriptionsTab } from './OrganisationSubscriptionsTab'

type Params = { query?: Record<string, unknown>; path?: Record<string, unknown> }
const calls = vi.hoisted(() => ({ gets: [] as { path: string; query?: Record<string, unknown> }[], posts: [] as { path: string; query?: Record<string, unknown>; id?: unknown; body?: unknown }[] }))

vi.mock('@/api/client', async (original) => {
  const actual = await original<typeof import('@/api/client')>()
  const answer = (status: number, body?: unknown) =>
    Promise.resolve(status < 300 ? { response: new Response(null, { status }), data: body } : { response: new Response(null, { status }), error: body })
  const row = (id: string, email: string, active: boolean, startDate: string | null, validUntil: string) => ({
    id,
    description: 'Organisatie abonnement van Zorggroep Zuid',
    organizationName: 'Zorggroep Zuid',
    userId: null,
    userEmail: email,
    subOrganizationId: 's1',
    subOrganizationName: 'De Linde',
    startDate,
    validUntil,
    active,
    switchedOff: false,
    ownValidUntil: null,
  })
  const rows = [row('o1', 'anne@praktijk.nl', true, '2026-01-01', '2026-12-31'), row('o2', 'bram@praktijk.nl', false, null, '2025-01-31')]
  return {
    ...actual,
    api: {
      ...actual.api,
      GET: vi.fn((path: string, options?: { params?: Params }) => {
        calls.gets.push({ path, query: options?.params?.query })
        if (path === '/api/cms/organizationsubscriptions/all') {
          const shown = options?.params?.query?.activeOnly ? rows.filter((r) => r.active) : rows
          return answer(200, { rows: shown, total: shown.length, page: 0, pageSize: 50 })
        }
        if (path === '/api/cms/getAllOrganizationSubscriptionsProblems/email')
          return answer(200, [{ email: 'carla@praktijk.nl', userId: 'u3', subOrganizationId: 's1', subOrganizationName: 'De Linde' }])
        if (path === '/api/cms/getAllOrganizationSubscriptionsProblems/linked') return answer(200, [])
        return answer(500, { error: 'internal', message: 'Er ging iets mis' })
      }),
      POST: vi.fn((path: string, options?: { params?: Params; body?: unknown }) => {
        calls.posts.push({ path, query: options?.params?.query, id: options?.params?.path?.id, body: options?.body })
        // bram's term is past: switched on, he stays off
        if (path === '/api/cms/organizationsubscription/active/{id}') return answer(200, { ...rows[1], switchedOff: !options?.body })
        if (path === '/api/cms/organizationsubscription/valid/{id}') return answer(200, { ...rows[0], ownValidUntil: options?.body || null })
        if (path === '/api/cms/deleteOrganizationSubscription')
          return answer(409, { error: 'conflict', message: 'Dit is geen dubbel ingevoerd abonnement, verwijder de gebruiker via de Organisatie tab.' })
        if (path === '/api/cms/tribe') return answer(200, { linked: 1, subscriptionsChanged: 3 })
        return answer(500, { error: 'internal', message: 'Er ging iets mis' })
      }),
    },
  }
})

function renderTab() {
  return renderAt(
    '/cms',
    () => (
      <ToastProvider>
        <OrganisationSubscriptionsTab />
      </ToastProvider>
    ),
    new QueryClient(),
  )
}

beforeEach(() => {
  calls.gets.length = 0
  calls.posts.length = 0
})

describe('Organisatie abonnementen', () => {
  it('shows the heading, the explanation, the warning list that is not empty, and the subscriptions in the api’s order', async () => {
    renderTab()
    expect(await screen.findByRole('heading', { level: 2, name: 'Abonnementen via organisatie' })).toBeInTheDocument()
    expect(screen.getByText(/Actief en Geldig tot kunnen worden aangepast: ligt Geldig tot in het verleden, dan wordt Actief automatisch uit/)).toBeInTheDocument()
    expect(screen.getByText(/die u wijzigt op het tabblad Organisaties/)).toBeInTheDocument()

    const warning = await screen.findByRole('alert')
    expect(warning).toHaveTextContent('Gebruikers met een account die nog als adres zonder account aan een suborganisatie gekoppeld zijn')
    expect(warning).toHaveTextContent('carla@praktijk.nl (De Linde)')
    expect(warning).toHaveTextContent(/Neem contact op met het ontwikkelteam$/)
    // the empty list is not shown
    expect(screen.getAllByRole('alert')).toHaveLength(1)

    const table = screen.getByRole('table', { name: 'Abonnementen via organisatie' })
    await within(table).findByText('anne@praktijk.nl')
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Organisatie', 'Email', 'Suborganisatie', 'Looptijd', 'Actief'])
    const [, anne, bram] = within(table).getAllByRole('row')
    expect(within(anne).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'Zorggroep Zuid',
      'anne@praktijk.nl',
      'De Linde',
      '1 januari 2026 – 31 december 2026',
      'Actief',
    ])
    expect(within(bram).getAllByRole('cell').map((td) => td.textContent)).toEqual([
      'Zorggroep Zuid',
      'bram@praktijk.nl',
      'De Linde',
      'tot en met 31 januari 2025',
      'Niet actief',
    ])
    // Actief is a switch per subscription, in its state; Geldig tot is changed in a modal
    expect(within(anne).getByRole('switch', { name: 'Actief: abonnement van anne@praktijk.nl bij De Linde' })).toBeChecked()
    expect(within(bram).getByRole('switch', { name: 'Actief: abonnement van bram@praktijk.nl bij De Linde' })).not.toBeChecked()
    expect(within(anne).getByRole('button', { name: 'Geldig tot van anne@praktijk.nl bij De Linde wijzigen' })).toBeInTheDocument()
    expect(within(table).queryByRole('textbox')).toBeNull()

    await userEvent.click(screen.getByRole('switch', { name: 'Alleen actieve abonnementen' }))
    await waitFor(() => expect(within(table).queryByText('bram@praktijk.nl')).toBeNull())
    expect(calls.gets.filter((c) => c.path === '/api/cms/organizationsubscriptions/all').at(-1)?.query).toEqual({ page: 0, activeOnly: true })
  })

  it('adds a delete column for duplicates, asks first, and shows the api’s warning when it is no duplicate', async () => {
    renderTab()
    const table = await screen.findByRole('table', { name: 'Abonnementen via organisatie' })
    await within(table).findByText('anne@praktijk.nl')
    expect(within(table).queryByRole('button', { name: /verwijderen$/ })).toBeNull()
    await userEvent.click(screen.getByRole('switch', { name: 'Verwijder dubbele abonnementen' }))
    expect(within(table).getAllByRole('columnheader')).toHaveLength(6)

    await userEvent.click(within(table).getByRole('button', { name: 'Abonnement van anne@praktijk.nl bij De Linde verwijderen' }))
    const dialog = await screen.findByRole('dialog', { name: 'Dubbel abonnement verwijderen?' })
    expect(dialog).toHaveTextContent('Verwijder alleen dubbel ingevoerde abonnementen.')
    expect(dialog).toHaveTextContent('de gebruiker wordt niet uit de organisatie verwijderd')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwijderen' }))
    await waitFor(() => expect(calls.posts).toEqual([{ path: '/api/cms/deleteOrganizationSubscription', query: { organizationSubscriptionId: 'o1' } }]))
    const toast = await screen.findByText('Dit is geen dubbel ingevoerd abonnement, verwijder de gebruiker via de Organisatie tab.')
    expect(toast.closest('[role="status"]')).toHaveTextContent('Waarschuwing')
  })

  it('synchronises and says what it did', async () => {
    renderTab()
    await userEvent.click(await screen.findByRole('button', { name: 'Synchroniseren' }))
    expect(await screen.findByText('Gesynchroniseerd: 1 adres gekoppeld, 3 organisatie abonnementen bijgewerkt.')).toBeInTheDocument()
    expect(calls.posts.map((c) => c.path)).toEqual(['/api/cms/tribe'])
  })

  it('switches a subscription on and says when its term keeps it off', async () => {
    renderTab()
    const table = await screen.findByRole('table', { name: 'Abonnementen via organisatie' })
    await within(table).findByText('bram@praktijk.nl')
    await userEvent.click(within(table).getByRole('switch', { name: 'Actief: abonnement van bram@praktijk.nl bij De Linde' }))
    await waitFor(() => expect(calls.posts).toEqual([{ path: '/api/cms/organizationsubscription/active/{id}', id: 'o2', body: true }]))
    expect(await screen.findByText('Het abonnement blijft inactief: de looptijd is nog niet begonnen of Geldig tot ligt in het verleden.')).toBeInTheDocument()
  })

  it('checks an own Geldig tot before sending it, and sends an empty one as following the organisation', async () => {
    renderTab()
    const table = await screen.findByRole('table', { name: 'Abonnementen via organisatie' })
    await within(table).findByText('anne@praktijk.nl')
    const open = () => userEvent.click(within(table).getByRole('button', { name: 'Geldig tot van anne@praktijk.nl bij De Linde wijzigen' }))
    await open()
    let dialog = await screen.findByRole('dialog', { name: 'Geldig tot wijzigen' })
    const field = within(dialog).getByRole('textbox', { name: 'Geldig tot (yyyy-mm-dd, leeg: volgt de organisatie)' })
    expect(field).toHaveValue('')
    await userEvent.type(field, '31-12-2030')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30')
    expect(calls.posts).toEqual([])
    await userEvent.clear(field)
    await userEvent.type(field, '2030-12-31')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(calls.posts).toEqual([{ path: '/api/cms/organizationsubscription/valid/{id}', id: 'o1', body: '2030-12-31' }])

    await open()
    dialog = await screen.findByRole('dialog', { name: 'Geldig tot wijzigen' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Opslaan' }))
    await waitFor(() => expect(calls.posts).toHaveLength(2))
    expect(calls.posts[1]).toEqual({ path: '/api/cms/organizationsubscription/valid/{id}', id: 'o1', body: '' })
  })
})
