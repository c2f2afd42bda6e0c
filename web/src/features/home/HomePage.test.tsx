import { QueryClient } from '@tanstack/react-query'
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { meQueryOptions } from '@/features/user'
import { renderAt } from '@/test/renderRoute'
import { HomePage } from './HomePage'

function withMe(preferredName: string | null, username: string) {
  const queryClient = new QueryClient()
  queryClient.setQueryData(meQueryOptions().queryKey, {
    id: 'sub',
    email: `${username}@example.nl`,
    username,
    preferredName,
    roles: [],
    acceptedAgreement: true,
    isStaff: false,
  })
  return queryClient
}

describe('HomePage', () => {
  it('greets the user by the preferred name', async () => {
    renderAt('/', HomePage, withMe('Anne de Vries', 'huisarts'))
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Welkom, Anne de Vries')
  })

  it('greets the user by the login name without a preferred name', async () => {
    renderAt('/', HomePage, withMe(null, 'poh'))
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Welkom, poh')
  })

  it('offers the eight actions with their targets', async () => {
    renderAt('/', HomePage, withMe(null, 'poh'))
    const cards = await screen.findAllByTestId('action-card')
    expect(cards.map((card) => [card.querySelector('span.font-semibold')?.textContent, card.getAttribute('href')])).toEqual([
      ['Gesproken consult', '/consult/v1/audio'],
      ['Nieuw Gesproken consult', '/audioconsult/beta/soap'],
      ['POH-GGZ Consult', '/audioconsult/beta/soap/poh-ggz'],
      ['Dicteren', '/audioconsult/beta/dictation'],
      ['E-consult', '/consult/v1/econsult'],
      ['Radiologie', '/audioconsult/beta/radiology'],
      ['Profiel aanvullen', '/onboarding/'],
      ['Personaliseer', '/personalize'],
    ])
  })
})
