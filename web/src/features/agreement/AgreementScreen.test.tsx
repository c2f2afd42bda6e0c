import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '@/api/client'
import { renderAt } from '@/test/renderRoute'
import { AgreementScreen } from './AgreementScreen'

const newUser = () => ({ profile: { sub: 'nieuw-sub', email: 'nieuw@praktijk.nl' } as Record<string, unknown> })

const auth = vi.hoisted(() => ({
  user: { profile: {} },
  signinSilent: vi.fn(),
  signoutRedirect: vi.fn(),
}))

vi.mock('react-oidc-context', () => ({ useAuth: () => auth }))

const answer = (status: number, body: unknown) =>
  ({ ...(status < 400 ? { data: body } : { error: body }), response: new Response(null, { status }) }) as never

const acceptButton = () => screen.getByRole('button', { name: /Ik ga akkoord|Bezig…/ })
const downloadLink = () => screen.getByRole('link', { name: 'Download de gebruikersovereenkomst (PDF)' })

/** Clicks the download link without jsdom trying to follow it. */
async function download(user: ReturnType<typeof userEvent.setup>) {
  const link = downloadLink()
  link.addEventListener('click', (event) => event.preventDefault(), { once: true })
  await user.click(link)
}

beforeEach(() => {
  window.sessionStorage.clear()
  auth.user = newUser()
  auth.signinSilent.mockReset()
})

afterEach(() => vi.restoreAllMocks())

describe('AgreementScreen', () => {
  it('offers the PDF and keeps the accept button disabled until it was downloaded', async () => {
    renderAt('/overeenkomst', AgreementScreen)
    expect(await screen.findByRole('heading', { level: 1, name: 'Welkom' })).toBeInTheDocument()
    expect(downloadLink()).toHaveAttribute('href', '/files/overeenkomst_v1.pdf')
    expect(downloadLink()).toHaveAttribute('download')
    expect(acceptButton()).toHaveTextContent('Ik ga akkoord')
    expect(acceptButton()).toBeDisabled()
    expect(acceptButton()).toHaveAccessibleDescription('Download eerst de overeenkomst om verder te gaan.')
  })

  it('enables the accept button once the agreement is downloaded, also after a reload', async () => {
    const user = userEvent.setup()
    const first = renderAt('/overeenkomst', AgreementScreen)
    await screen.findByRole('heading', { level: 1, name: 'Welkom' })
    await download(user)
    expect(acceptButton()).toBeEnabled()
    expect(screen.queryByText('Download eerst de overeenkomst om verder te gaan.')).not.toBeInTheDocument()

    first.unmount()
    renderAt('/overeenkomst', AgreementScreen)
    await screen.findByRole('heading', { level: 1, name: 'Welkom' })
    expect(acceptButton()).toBeEnabled()
  })

  it('records the acceptance, renews the session and goes where the user wanted', async () => {
    const post = vi.spyOn(api, 'POST').mockResolvedValue(answer(200, { version: 1, acceptedAt: '2025-11-21T10:00:00Z' }))
    auth.signinSilent.mockImplementation(() => {
      auth.user = { profile: { ...auth.user.profile, 'accepted-agreement': true } }
      return Promise.resolve(auth.user)
    })
    const user = userEvent.setup()
    const { router } = renderAt('/overeenkomst?returnTo=%2Fstatus%3Fbron%3De2e', AgreementScreen)
    await screen.findByRole('heading', { level: 1, name: 'Welkom' })
    await download(user)
    await user.click(acceptButton())
    expect(post).toHaveBeenCalledWith('/api/user/agreement')
    expect(auth.signinSilent).toHaveBeenCalled()
    await waitFor(() => expect(router.state.location.href).toBe('/status?bron=e2e'))
  })

  it('says the acceptance failed, with the api’s reason, and lets the user try again', async () => {
    let settle: (value: never) => void = () => {}
    const post = vi
      .spyOn(api, 'POST')
      .mockImplementationOnce(() => new Promise((resolve) => (settle = resolve)))
      .mockResolvedValue(answer(500, {}))
    const user = userEvent.setup()
    renderAt('/overeenkomst', AgreementScreen)
    await screen.findByRole('heading', { level: 1, name: 'Welkom' })
    await download(user)

    await user.click(acceptButton())
    expect(acceptButton()).toHaveTextContent('Bezig…')
    expect(acceptButton()).toBeDisabled()
    settle(answer(400, { message: 'Er is geen overeenkomst van kracht.' }))

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('De overeenkomst kon niet worden vastgelegd. Probeer het opnieuw.')
    expect(alert).toHaveTextContent('Er is geen overeenkomst van kracht.')
    expect(acceptButton()).toHaveTextContent('Ik ga akkoord')
    expect(acceptButton()).toBeEnabled()
    expect(auth.signinSilent).not.toHaveBeenCalled()

    await user.click(acceptButton())
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2))
    expect(await screen.findByRole('alert')).toHaveTextContent('De overeenkomst kon niet worden vastgelegd. Probeer het opnieuw.')
    expect(screen.getByRole('alert')).not.toHaveTextContent('Er is geen overeenkomst van kracht.')
  })
})
