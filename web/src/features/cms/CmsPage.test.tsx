import { QueryClient } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderAt } from '@/test/renderRoute'
import { CmsPage } from './CmsPage'

const access = vi.hoisted(() => ({ status: 403 }))

vi.mock('@/api/client', async (original) => {
  const actual = await original<typeof import('@/api/client')>()
  const answer = (status: number, body: unknown) =>
    Promise.resolve(status < 300 ? { response: new Response(null, { status }), data: body } : { response: new Response(null, { status }), error: body })
  return {
    ...actual,
    api: {
      ...actual.api,
      // the access check: 200 for staff, 403 for anyone else
      POST: vi.fn(() => answer(access.status, access.status === 200 ? { staff: true } : { error: 'forbidden', message: 'Geen toegang' })),
      // the lists are not what these tests are about
      GET: vi.fn(() => answer(500, { error: 'internal', message: 'Er ging iets mis' })),
    },
  }
})

const tabs = [
  'Gebruikers',
  'Gebruikers abonnementen',
  'Betalingen',
  'Organisaties',
  'Organisatie abonnementen',
  'HIS',
  'Statistieken',
  'Auditlog',
  'Achtergrondtaken',
]

describe('the CMS shell', () => {
  it('shows a quiet state while the access check runs, then sends a refused user to / in place', async () => {
    access.status = 403
    const { router } = renderAt('/cms?tab=betalingen', () => <CmsPage tab="betalingen" onTab={() => {}} />, new QueryClient())
    expect(await screen.findByRole('status')).toHaveTextContent('Toegang controleren…')
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(router.history.length).toBe(1)
    expect(screen.queryByRole('heading', { name: 'CMS' })).toBeNull()
  })

  it('shows the nine tabs to staff, the chosen one selected, and a select named Tabblad for small screens', async () => {
    access.status = 200
    const onTab = vi.fn()
    renderAt('/cms', () => <CmsPage tab="organisaties" onTab={onTab} />, new QueryClient())
    await screen.findByRole('heading', { level: 1, name: 'CMS' })
    const list = screen.getByRole('tablist')
    expect(within(list).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(tabs)
    expect(screen.getByRole('tab', { name: 'Organisaties' })).toHaveAttribute('aria-selected', 'true')
    // Organisaties is headed 'Hoofdorganisaties'
    expect(screen.getByRole('heading', { level: 2, name: 'Hoofdorganisaties' })).toBeInTheDocument()

    const select = screen.getByLabelText('Tabblad')
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual(tabs)
    await userEvent.selectOptions(select, 'Achtergrondtaken')
    expect(onTab).toHaveBeenLastCalledWith('achtergrondtaken')
    await userEvent.click(screen.getByRole('tab', { name: 'Auditlog' }))
    expect(onTab).toHaveBeenLastCalledWith('auditlog')
  })
})
