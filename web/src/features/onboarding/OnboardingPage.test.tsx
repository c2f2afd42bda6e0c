import { QueryClient } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError } from '@/api/client'
import { meQueryOptions } from '@/features/user'
import { renderAt } from '@/test/renderRoute'
import { OnboardingPage } from './OnboardingPage'
import type { OnboardingProfile } from './profile'

const stored: OnboardingProfile = {
  preferredUsername: 'Anne',
  phoneNumber: '020 123 4567',
  AGBCode: '01012345',
  organizationName: 'Huisartsenpraktijk De Linde',
  userKind: 'ARTS',
  practitionerKind: 'WAARNEMEND',
}

const me = {
  id: 'sub',
  email: 'poh@example.nl',
  username: 'poh',
  preferredName: null,
  roles: [],
  acceptedAgreement: true,
  isStaff: false,
}

const answer = (status: number, body: unknown) =>
  ({ ...(status < 400 ? { data: body } : { error: body }), response: new Response(null, { status }) }) as never

/** The api's GET: the profile (or what `onboarding` does) and the user. */
function mockGet(onboarding: () => Promise<unknown> = () => Promise.resolve(answer(200, stored))) {
  return vi.spyOn(api, 'GET').mockImplementation(((path: string) =>
    path === '/api/user/onboarding/user' ? onboarding() : Promise.resolve(answer(200, me))) as never)
}

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } })
}

const field = (name: string) => screen.getByRole('textbox', { name })
const group = (name: string) => screen.queryByRole('group', { name })

afterEach(() => vi.restoreAllMocks())

describe('OnboardingPage', () => {
  it('shows the questions filled in with the stored profile', async () => {
    mockGet()
    renderAt('/onboarding/', OnboardingPage, client())
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('We graag willen nog een aantal vragen stellen..')
    expect(await screen.findByRole('textbox', { name: 'Met welke naam wil je aangesproken worden?' })).toHaveValue('Anne')
    expect(field('Telefoonnummer')).toHaveValue('020 123 4567')
    expect(field('Telefoonnummer')).toHaveAttribute('type', 'tel')
    expect(field('AGB-code van de praktijk')).toHaveValue('01012345')
    expect(field('AGB-code van de praktijk')).toHaveAccessibleDescription(/8 cijfers/)
    expect(field('Naam van de praktijk of organisatie')).toHaveValue('Huisartsenpraktijk De Linde')
    expect(within(group('Wat is je rol?')!).getByRole('radio', { name: 'Arts' })).toBeChecked()
    expect(within(group('Ben je waarnemend of praktijkhoudend?')!).getByRole('radio', { name: 'Waarnemend' })).toBeChecked()

    const register = screen.getByRole('link', { name: /AGB-register/ })
    expect(register).toHaveAttribute('href', 'https://www.vektis.nl/agb-register')
    expect(register).toHaveAttribute('target', '_blank')
    expect(register.getAttribute('rel')).toContain('noopener')
    expect(screen.getByRole('link', { name: 'Niet opslaan' })).toHaveAttribute('href', '/')
  })

  it('shows a calm loading state while the profile comes in', async () => {
    mockGet(() => new Promise(() => {}))
    renderAt('/onboarding/', OnboardingPage, client())
    expect(await screen.findByRole('status')).toHaveTextContent('Je gegevens worden geladen…')
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
  })

  it('asks whether an Arts is waarnemend or praktijkhoudend, and no one else', async () => {
    mockGet(() => Promise.resolve(answer(200, {})))
    renderAt('/onboarding/', OnboardingPage, client())
    const role = await screen.findByRole('group', { name: 'Wat is je rol?' })
    expect(group('Ben je waarnemend of praktijkhoudend?')).not.toBeInTheDocument()
    await userEvent.click(within(role).getByRole('radio', { name: 'Arts' }))
    expect(group('Ben je waarnemend of praktijkhoudend?')).toBeInTheDocument()
    await userEvent.click(within(role).getByRole('radio', { name: 'Zorggroepmanager' }))
    expect(group('Ben je waarnemend of praktijkhoudend?')).not.toBeInTheDocument()
  })

  it('saves the whole profile, refreshes the user and goes to Home', async () => {
    const get = mockGet()
    const post = vi.spyOn(api, 'POST').mockResolvedValue(answer(200, { ...stored, userKind: 'ANDERS', practitionerKind: null }))
    const queryClient = client()
    // as Home's loader left it
    await queryClient.prefetchQuery(meQueryOptions())
    const { router } = renderAt('/onboarding/', OnboardingPage, queryClient)
    const name = await screen.findByRole('textbox', { name: 'Met welke naam wil je aangesproken worden?' })
    await userEvent.clear(name)
    await userEvent.type(name, ' Dokter Anne ')
    await userEvent.click(within(group('Wat is je rol?')!).getByRole('radio', { name: 'Anders' }))
    expect(group('Ben je waarnemend of praktijkhoudend?')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(post).toHaveBeenCalledWith('/api/user/onboarding/info', {
      body: {
        preferredUsername: 'Dokter Anne',
        phoneNumber: '020 123 4567',
        AGBCode: '01012345',
        organizationName: 'Huisartsenpraktijk De Linde',
        userKind: 'ANDERS',
        practitionerKind: null,
      },
    })
    // the user asked again (Home greets by the preferred name), before Home shows
    expect(get.mock.calls.filter((call) => (call as unknown[])[0] === '/api/user/me')).toHaveLength(2)
    expect(queryClient.getQueryState(meQueryOptions().queryKey)?.isInvalidated).toBe(false)
  })

  it("says 'Informatie kon niet worden opgeslagen.' with the api's reason, and keeps what was typed", async () => {
    mockGet(() => Promise.resolve(answer(200, {})))
    vi.spyOn(api, 'POST').mockResolvedValue(
      answer(400, { error: 'invalid_profile', message: 'Een AGB-code bestaat uit 8 cijfers.' }),
    )
    const { router } = renderAt('/onboarding/', OnboardingPage, client())
    await userEvent.type(await screen.findByRole('textbox', { name: 'AGB-code van de praktijk' }), '1234')
    await userEvent.type(field('Met welke naam wil je aangesproken worden?'), 'Anne')
    await userEvent.click(screen.getByRole('button', { name: 'Opslaan' }))

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Informatie kon niet worden opgeslagen.')
    expect(alert).toHaveTextContent('Een AGB-code bestaat uit 8 cijfers.')
    expect(router.state.location.pathname).toBe('/onboarding/')
    expect(field('AGB-code van de praktijk')).toHaveValue('1234')
    expect(field('Met welke naam wil je aangesproken worden?')).toHaveValue('Anne')
    expect(screen.getByRole('button', { name: 'Opslaan' })).toBeEnabled()
  })

  it('gives only the general message when the failure has no reason', async () => {
    mockGet(() => Promise.resolve(answer(200, {})))
    vi.spyOn(api, 'POST').mockRejectedValue(new TypeError('Failed to fetch'))
    renderAt('/onboarding/', OnboardingPage, client())
    await userEvent.click(await screen.findByRole('button', { name: 'Opslaan' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Informatie kon niet worden opgeslagen\.$/)
  })

  it('still shows the form, empty and with a note, when the profile cannot be loaded', async () => {
    mockGet(() => Promise.reject(new ApiError(500, { error: 'internal', message: 'Er ging iets mis' })))
    renderAt('/onboarding/', OnboardingPage, client())
    expect(await screen.findByRole('note')).toHaveTextContent('Je huidige gegevens konden niet worden geladen.')
    expect(field('Met welke naam wil je aangesproken worden?')).toHaveValue('')
    expect(screen.getByRole('button', { name: 'Opslaan' })).toBeEnabled()
  })
})
