import { QueryClient } from '@tanstack/react-query'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { meQueryOptions } from '@/features/user'
import { renderAt } from '@/test/renderRoute'
import { NavBar } from './NavBar'

const signoutRedirect = vi.fn()

vi.mock('react-oidc-context', () => ({
  useAuth: () => ({
    user: { profile: { email: 'huisarts@example.nl', preferred_username: 'huisarts' } },
    signoutRedirect,
  }),
}))

const navigation = () => screen.getByRole('navigation', { name: 'Hoofdnavigatie' })
const current = () => within(navigation()).getAllByRole('link').filter((link) => link.getAttribute('aria-current') === 'page')

describe('NavBar', () => {
  beforeEach(() => signoutRedirect.mockClear())

  it('shows the five main links', async () => {
    renderAt('/', NavBar)
    await screen.findByRole('navigation', { name: 'Hoofdnavigatie' })
    const links = within(navigation()).getAllByRole('link')
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Overzicht', '/'],
      ['Templates', '/template'],
      ['Status', '/status'],
      ['FAQ', '/faq'],
      ['Abonnementen', '/subscription'],
    ])
  })

  it('marks Overzicht on the home page', async () => {
    renderAt('/', NavBar)
    await screen.findByRole('navigation', { name: 'Hoofdnavigatie' })
    expect(current().map((link) => link.textContent)).toEqual(['Overzicht'])
  })

  it('marks Status on the status page, whatever the query string', async () => {
    renderAt('/status?bron=e2e', NavBar)
    await screen.findByRole('navigation', { name: 'Hoofdnavigatie' })
    expect(current().map((link) => link.textContent)).toEqual(['Status'])
  })

  it('marks Templates on a page deeper below it', async () => {
    renderAt('/template/entry/12', NavBar)
    await screen.findByRole('navigation', { name: 'Hoofdnavigatie' })
    expect(current().map((link) => link.textContent)).toEqual(['Templates'])
  })

  it('offers Your Profile, Settings and Sign out in the user menu', async () => {
    renderAt('/', NavBar)
    await userEvent.click(await screen.findByRole('button', { name: /Gebruikersmenu openen/ }))
    const items = await screen.findAllByRole('menuitem')
    expect(items.map((item) => item.textContent)).toEqual(['Your Profile', 'Settings', 'Sign out'])
    expect(screen.getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute('href', '/onboarding/')
    expect(screen.getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings')
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }))
    expect(signoutRedirect).toHaveBeenCalledOnce()
  })

  it('signs out through the identity provider with the Log out icon', async () => {
    renderAt('/', NavBar)
    await userEvent.click(await screen.findByTitle('Log out'))
    expect(signoutRedirect).toHaveBeenCalledOnce()
  })

  it('repeats the main links in the collapsible panel', async () => {
    renderAt('/faq', NavBar)
    await userEvent.click(await screen.findByRole('button', { name: 'Hoofdmenu openen' }))
    const panels = await screen.findAllByRole('navigation', { name: 'Hoofdnavigatie' })
    expect(panels).toHaveLength(2)
    const links = within(panels[1]).getAllByRole('link')
    expect(links.map((link) => link.textContent)).toEqual(['Overzicht', 'Templates', 'Status', 'FAQ', 'Abonnementen'])
    expect(links.filter((link) => link.getAttribute('aria-current') === 'page').map((l) => l.textContent)).toEqual(['FAQ'])
  })

  it('adds CMS for staff only', async () => {
    const me = (isStaff: boolean) => {
      const queryClient = new QueryClient()
      queryClient.setQueryData(meQueryOptions().queryKey, {
        id: 'sub',
        email: 'staff@example.nl',
        username: 'staff',
        preferredName: null,
        roles: [],
        acceptedAgreement: true,
        isStaff,
      })
      return queryClient
    }
    const staff = renderAt('/cms', NavBar, me(true))
    await screen.findByRole('navigation', { name: 'Hoofdnavigatie' })
    expect(within(navigation()).getByRole('link', { name: 'CMS' })).toHaveAttribute('href', '/cms')
    expect(current().map((link) => link.textContent)).toEqual(['CMS'])
    staff.unmount()

    renderAt('/', NavBar, me(false))
    await screen.findByRole('navigation', { name: 'Hoofdnavigatie' })
    expect(within(navigation()).queryByRole('link', { name: 'CMS' })).toBeNull()
  })
})
