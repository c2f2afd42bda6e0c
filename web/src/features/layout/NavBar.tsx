import { Disclosure, DisclosureButton, DisclosurePanel, Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { Link, useRouterState } from '@tanstack/react-router'
import { useAuth } from 'react-oidc-context'
import { Icon } from '@/components/Icon'
import { meQueryOptions } from '@/features/user'
import { isActiveLink } from './activeLink'
import { mainLinks, profilePath, staffLinks } from './navigation'
import { layoutTexts } from './texts'

const linkBase = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700'

export function NavBar() {
  const auth = useAuth()
  const pathname = useRouterState({ select: (state) => state.location.pathname })
  const email = auth.user?.profile.email ?? ''
  const name = auth.user?.profile.preferred_username ?? email
  const signOut = () => void auth.signoutRedirect()
  // staff also get the CMS; the api answers whether the user is staff
  const me = useQuery(meQueryOptions())
  const links = me.data?.isStaff ? [...mainLinks, ...staffLinks] : mainLinks

  return (
    <Disclosure as="header" className="border-b border-slate-200 bg-white">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex h-16 items-center justify-between gap-4">
          <div className="flex items-center gap-8">
            <Link to="/" aria-label={layoutTexts.home} className={`flex items-center gap-2 rounded-md ${linkBase}`}>
              <span className="flex size-8 items-center justify-center rounded-lg bg-brand-700 text-sm font-semibold text-white">S</span>
              <span className="text-base font-semibold tracking-tight text-slate-900">{layoutTexts.brand}</span>
            </Link>
            <nav aria-label={layoutTexts.mainNavigation} className="hidden sm:flex sm:gap-1">
              {links.map((link) => {
                const active = isActiveLink(link.to, pathname)
                return (
                  <Link
                    key={link.to}
                    to={link.to}
                    activeOptions={{ exact: true, includeSearch: false }}
                    aria-current={active ? 'page' : undefined}
                    className={`rounded-md px-3 py-2 text-sm font-medium ${linkBase} ${
                      active ? 'bg-brand-100 text-brand-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
                    }`}
                  >
                    {link.label}
                  </Link>
                )
              })}
            </nav>
          </div>

          <div className="flex items-center gap-2">
            <Menu as="div" className="relative">
              <MenuButton className={`flex items-center gap-2 rounded-full p-1 text-sm text-slate-700 hover:bg-slate-100 ${linkBase}`}>
                <span className="sr-only">{layoutTexts.openUserMenu}</span>
                <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 uppercase">
                  {name.slice(0, 1)}
                </span>
                <span className="hidden pr-1 font-medium md:block">{name}</span>
              </MenuButton>
              <MenuItems
                anchor="bottom end"
                transition
                className="z-20 mt-2 w-56 origin-top-right rounded-md bg-white py-1 shadow-lg ring-1 ring-black/5 transition focus:outline-none data-closed:scale-95 data-closed:opacity-0 data-enter:duration-100 data-leave:duration-75"
              >
                <div className="border-b border-slate-100 px-4 py-2 text-xs text-slate-500">
                  {layoutTexts.signedInAs}
                  <p className="truncate text-sm font-medium text-slate-900">{email}</p>
                </div>
                <MenuItem>
                  <Link to={profilePath} className="block px-4 py-2 text-sm text-slate-700 data-focus:bg-slate-100">
                    {layoutTexts.yourProfile}
                  </Link>
                </MenuItem>
                <MenuItem>
                  <Link to="/settings" className="block px-4 py-2 text-sm text-slate-700 data-focus:bg-slate-100">
                    {layoutTexts.settings}
                  </Link>
                </MenuItem>
                <MenuItem>
                  <button type="button" onClick={signOut} className="block w-full px-4 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100">
                    {layoutTexts.signOut}
                  </button>
                </MenuItem>
              </MenuItems>
            </Menu>

            <button
              type="button"
              title={layoutTexts.logOut}
              onClick={signOut}
              className={`rounded-full p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 ${linkBase}`}
            >
              <span className="sr-only">{layoutTexts.logOut}</span>
              <Icon name="logout" className="size-6" />
            </button>

            <DisclosureButton className={`rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 sm:hidden ${linkBase}`}>
              {({ open }) => (
                <>
                  <span className="sr-only">{open ? layoutTexts.closeMainMenu : layoutTexts.openMainMenu}</span>
                  <Icon name={open ? 'close' : 'menu'} className="size-6" />
                </>
              )}
            </DisclosureButton>
          </div>
        </div>
      </div>

      <DisclosurePanel className="border-t border-slate-200 sm:hidden">
        <nav aria-label={layoutTexts.mainNavigation} className="space-y-1 px-2 py-3">
          {links.map((link) => {
            const active = isActiveLink(link.to, pathname)
            return (
              <DisclosureButton
                key={link.to}
                as={Link}
                to={link.to}
                activeOptions={{ exact: true, includeSearch: false }}
                aria-current={active ? 'page' : undefined}
                className={`block rounded-md px-3 py-2 text-base font-medium ${
                  active ? 'bg-brand-100 text-brand-800' : 'text-slate-700 hover:bg-slate-100'
                }`}
              >
                {link.label}
              </DisclosureButton>
            )
          })}
        </nav>
      </DisclosurePanel>
    </Disclosure>
  )
}
