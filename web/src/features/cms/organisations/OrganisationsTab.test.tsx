import { QueryClient } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider } from '@/components/Toast'
import { renderAt } from '@/test/renderRoute'
import { OrganisationsTab } from './OrganisationsTab'

type Call = { path: string; params?: { path?: Record<string, string>; query?: Record<string, unknown> }; body?: unknown }

const calls = vi.hoisted(() => ({ gets: [] as Call[], posts: [] as Call[] }))

vi.mock('@/api/client', async (original) => {
  const actual = await original<typeof import('@/api/client')>()
  const answer = (status: number, body?: unknown) =>
    Promise.resolve(status < 300 ? { response: new Response(null, { status }), data: body } : { response: new Response(null, { status }), error: body })
  const main = (id: string, name: string, extra: object) => ({
    id,
    organizationName: name,
    agbCode: `agb-${id}`,
    type: 'CARE_GROUP',
    productType: null,
    startDate: null,
    validUntil: '1970-01-01',
    validDateMainLevel: false,
    isActive: true,
    subOrganizations: 1,
    createdAt: '2026-01-01T10:00:00Z',
    ...extra,
  })
  const mains = [
    main('m1', 'Zorggroep Zuid', { productType: 'ION' }),
    main('m2', 'Praktijkgroep Noord', {
      type: 'PRACTICE_GROUP',
      productType: 'USER',
      validDateMainLevel: true,
      startDate: '2026-01-01',
      validUntil: '2026-12-31',
      isActive: false,
      subOrganizations: 0,
    }),
  ]
  const subs = [
    {
      id: 's1',
      organisationId: 'm1',
      organizationName: 'De Linde',
      agbCode: '0101',
      type: 'PRACTICE',
      productType: null,
      startDate: '2026-01-01',
      validUntil: '2026-12-31',
      isActive: true,
      his: null,
      users: [{ id: 'u1', email: 'anne@praktijk.nl', isAdminUser: false }],
      userEmails: [{ email: 'bram@praktijk.nl', isAdminUser: false }],
    },
  ]
  return {
    ...actual,
    api: {
      ...actual.api,
      GET: vi.fn((path: string, options?: { params?: Call['params'] }) => {
        calls.gets.push({ path, params: options?.params })
        if (path === '/api/cms/organizations/all') {
          const filter = options?.params?.query?.filter
          const rows = filter === 'INACTIVE' ? mains.filter((m) => !m.isActive) : filter === 'ACTIVE' ? mains.filter((m) => m.isActive) : mains
          return answer(200, { rows, total: rows.length, page: 0, pageSize: 50 })
        }
        if (path === '/api/cms/suborganizations/{main_organization_id}') return answer(200, subs)
        if (path === '/api/cms/his/all') return answer(200, [{ id: 'h1', name: 'Medicom' }])
        return answer(500, { error: 'internal', message: 'Er ging iets mis' })
      }),
      POST: vi.fn((path: string, options: { params?: Call['params']; body?: unknown } = {}) => {
        calls.posts.push({ path, params: options.params, body: options.body })
        if (path === '/api/cms/organization') {
          const body = options.body as { organizationName: string; agbCode: string }
          if (body.agbCode === 'dubbel') return answer(400, { error: 'invalid', message: 'Een van de velden is te lang (hoogstens 200 tekens).' })
          return answer(200, { ...mains[0], ...body, id: 'm3' })
        }
        if (path === '/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}')
          return answer(200, { email: (options.body as { email: string }).email, userId: null })
        if (path === '/api/cms/suborganizationLinkingtoMain/{main_organization_id}') return answer(200, { ...subs[0], ...(options.body as object) })
        if (path === '/api/cms/setHISforOrganization/{sub_organization_id}') return answer(200, { ...subs[0], his: { id: 'h1', name: 'Medicom' } })
        if (path === '/api/cms/setDurationForMainOrganization/{main_organization_id}')
          return answer(400, { error: 'invalid', message: 'Subscription kon niet worden geupdate. Ongeldige datum.' })
        if (path === '/api/cms/setDurationForSubOrganization/{sub_organization_id}')
          return answer(200, { startDate: null, endDate: '2025-01-31', subscriptionsChanged: 2 })
        return answer(204)
      }),
    },
  }
})

function renderTab() {
  return renderAt(
    '/cms',
    () => (
      <ToastProvider>
        <OrganisationsTab />
      </ToastProvider>
    ),
    new QueryClient(),
  )
}

const posted = (path: string) => calls.posts.filter((call) => call.path === path)

beforeEach(() => {
  calls.gets.length = 0
  calls.posts.length = 0
})

afterEach(() => {
  vi.useRealTimers()
})

describe('Organisaties', () => {
  it('lists the main organisations with Dutch labels, their term or Per suborganisatie, and filters Alle/Actieve/Inactieve', async () => {
    renderTab()
    expect(await screen.findByRole('heading', { level: 2, name: 'Hoofdorganisaties' })).toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Hoofdorganisaties' })
    await within(table).findByText('Zorggroep Zuid')
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Naam', 'AGB-code', 'Type', 'Product', 'Looptijd', 'Actief', 'Acties'])
    const [, zuid, noord] = within(table).getAllByRole('row')
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').slice(0, 6).map((td) => td.textContent)
    expect(cells(zuid)).toEqual(['Zorggroep ZuidSuborganisaties (1)', 'agb-m1', 'Zorggroep', 'ION abonnement', 'Per suborganisatie', 'Actief'])
    expect(cells(noord)).toEqual([
      'Praktijkgroep NoordSuborganisaties (0)',
      'agb-m2',
      'Praktijkgroep',
      'Gebruikers abonnement',
      '1 januari 2026 – 31 december 2026',
      'Niet actief',
    ])

    const filter = screen.getByRole('group', { name: 'Toon' })
    expect(within(filter).getAllByRole('radio').map((radio) => radio.parentElement?.textContent)).toEqual(['Alle', 'Actieve', 'Inactieve'])
    expect(within(filter).getByRole('radio', { name: 'Alle' })).toBeChecked()
    await userEvent.click(within(filter).getByRole('radio', { name: 'Inactieve' }))
    await waitFor(() => expect(within(table).queryByText('Zorggroep Zuid')).toBeNull())
    expect(calls.gets.at(-1)?.params?.query).toMatchObject({ filter: 'INACTIVE', page: 0 })
  })

  it('adds a main organisation after saying what is missing, in the spec’s order; the message goes after 8 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    renderTab()
    await screen.findByText('Zorggroep Zuid')
    await user.click(screen.getByRole('button', { name: 'Nieuwe hoofdorganisatie' }))
    const row = screen.getByRole('row', { name: 'Nieuwe hoofdorganisatie' })
    expect(within(row).getByRole('textbox', { name: 'Naam' })).toHaveFocus()

    await user.click(within(row).getByRole('button', { name: 'Toevoegen' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Naam niet ingevuld')
    await act(() => vi.advanceTimersByTimeAsync(7_500))
    expect(screen.getByRole('alert')).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(600))
    expect(screen.queryByRole('alert')).toBeNull()

    await user.type(within(row).getByRole('textbox', { name: 'Naam' }), 'Zorggroep West')
    await user.type(within(row).getByRole('textbox', { name: 'AGB-code' }), '0303')
    // the term on main level: its inputs show once chosen
    expect(within(row).queryByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' })).toBeNull()
    await user.click(within(row).getByRole('checkbox', { name: 'Looptijd op hoofdniveau' }))
    await user.click(within(row).getByRole('button', { name: 'Toevoegen' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Einddatum niet ingevuld')
    await user.type(within(row).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }), '31-12-2026')
    await user.click(within(row).getByRole('button', { name: 'Toevoegen' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30')
    await user.clear(within(row).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }))
    await user.type(within(row).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }), '2026-12-31')
    await user.click(within(row).getByRole('button', { name: 'Toevoegen' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Categorie niet ingevuld')
    expect(posted('/api/cms/organization')).toEqual([])

    await user.selectOptions(within(row).getByRole('combobox', { name: 'Type' }), 'Zorggroep')
    await user.selectOptions(within(row).getByRole('combobox', { name: 'Product' }), 'Gebruikers abonnement')
    // Enter in a field saves the row
    await user.type(within(row).getByRole('textbox', { name: 'AGB-code' }), '{Enter}')
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Nieuwe hoofdorganisatie' })).toBeNull())
    expect(posted('/api/cms/organization').map((call) => call.body)).toEqual([
      {
        organizationName: 'Zorggroep West',
        agbCode: '0303',
        type: 'CARE_GROUP',
        productType: 'USER',
        validDateMainLevel: true,
        startDate: null,
        validUntil: '2026-12-31',
      },
    ])
    expect(await screen.findByText('Zorggroep West is toegevoegd.')).toBeInTheDocument()
  })

  it('edits a row in place, with the inline messages, and sends its term as it was', async () => {
    renderTab()
    await screen.findByText('Praktijkgroep Noord')
    await userEvent.click(screen.getByRole('button', { name: 'Praktijkgroep Noord bewerken' }))
    const row = screen.getByRole('row', { name: 'Praktijkgroep Noord bewerken' })
    const agb = within(row).getByRole('textbox', { name: 'AGB-code' })
    await userEvent.clear(agb)
    await userEvent.selectOptions(within(row).getByRole('combobox', { name: 'Type' }), 'Kies een type')
    await userEvent.click(within(row).getByRole('button', { name: 'Opslaan' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Agbcode niet ingevuld')
    await userEvent.type(agb, 'dubbel')
    await userEvent.click(within(row).getByRole('button', { name: 'Opslaan' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Type niet ingevuld')
    await userEvent.selectOptions(within(row).getByRole('combobox', { name: 'Type' }), 'Post')
    // the api's refusal shows in the row
    await userEvent.click(within(row).getByRole('button', { name: 'Opslaan' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Een van de velden is te lang (hoogstens 200 tekens).'))
    await userEvent.clear(agb)
    await userEvent.type(agb, '0202')
    await userEvent.click(within(row).getByRole('button', { name: 'Opslaan' }))
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Praktijkgroep Noord bewerken' })).toBeNull())
    expect(posted('/api/cms/organization').at(-1)?.body).toEqual({
      id: 'm2',
      organizationName: 'Praktijkgroep Noord',
      agbCode: '0202',
      type: 'POST',
      productType: 'USER',
      validDateMainLevel: true,
      startDate: '2026-01-01',
      validUntil: '2026-12-31',
    })
  })

  it('asks before deleting a main organisation', async () => {
    renderTab()
    await screen.findByText('Zorggroep Zuid')
    await userEvent.click(screen.getByRole('button', { name: 'Zorggroep Zuid verwijderen' }))
    const dialog = await screen.findByRole('dialog', { name: 'Hoofdorganisatie verwijderen?' })
    expect(dialog).toHaveTextContent('Zorggroep Zuid wordt verwijderd, met de suborganisaties')
    expect(posted('/api/cms/organizatioDelete/{organization_id}')).toEqual([])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwijderen' }))
    await waitFor(() => expect(posted('/api/cms/organizatioDelete/{organization_id}').map((c) => c.params?.path)).toEqual([{ organization_id: 'm1' }]))
  })

  it('shows the sub-organisations with their users, adds an address in lower case, switches admin and sets the HIS', async () => {
    renderTab()
    await screen.findByText('Zorggroep Zuid')
    await userEvent.click(within(screen.getAllByRole('row')[1]).getByRole('button', { name: 'Suborganisaties (1)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Suborganisaties van Zorggroep Zuid' })
    const card = await within(dialog).findByRole('listitem', { name: 'De Linde' })
    expect(card).toHaveTextContent('AGB-code 0101 · Praktijk · Leeg')
    expect(card).toHaveTextContent('Looptijd: 1 januari 2026 – 31 december 2026')
    const users = within(card).getByRole('list', { name: 'Gebruikers van De Linde' })
    expect(within(users).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('anne@praktijk.nl'),
      expect.stringContaining('bram@praktijk.nlNog geen account'),
    ])

    // the add form: registration mail on, admin off by default
    const form = within(card).getByRole('form', { name: 'Gebruiker toevoegen: De Linde' })
    expect(within(form).getByRole('checkbox', { name: 'Registratiemail versturen' })).toBeChecked()
    expect(within(form).getByRole('checkbox', { name: 'Beheerder' })).not.toBeChecked()
    const email = within(form).getByRole('textbox', { name: 'E-mailadres' })
    const add = within(form).getByRole('button', { name: 'Gebruiker toevoegen' })
    await userEvent.click(add)
    expect(await within(form).findByRole('alert')).toHaveTextContent('Email niet ingevuld')
    await userEvent.type(email, 'carla @praktijk.nl')
    await userEvent.click(add)
    expect(within(form).getByRole('alert')).toHaveTextContent('Email bevat spaties')
    await userEvent.clear(email)
    await userEvent.type(email, 'Bram@Praktijk.nl')
    await userEvent.click(add)
    expect(within(form).getByRole('alert')).toHaveTextContent('Gebruiker is al toegevoegd')
    await userEvent.clear(email)
    await userEvent.type(email, ' Carla@Praktijk.NL ')
    await userEvent.click(add)
    await waitFor(() =>
      expect(posted('/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}')).toEqual([
        {
          path: '/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}',
          params: { path: { main_organization_id: 'm1', sub_organization_id: 's1' } },
          body: { email: 'carla@praktijk.nl', admin: false, sendEmail: true },
        },
      ]),
    )
    await waitFor(() => expect(email).toHaveValue(''))

    // admin of an account
    await userEvent.click(within(users).getByRole('switch', { name: 'Beheerder' }))
    await waitFor(() =>
      expect(posted('/api/cms/suborganizationAdminUser/{sub_organization_id}/{user_id}').map((c) => [c.params?.path, c.body])).toEqual([
        [{ sub_organization_id: 's1', user_id: 'u1' }, true],
      ]),
    )

    // the HIS
    await userEvent.selectOptions(within(card).getByRole('combobox', { name: 'HIS van De Linde' }), 'Medicom')
    await waitFor(() => expect(posted('/api/cms/setHISforOrganization/{sub_organization_id}').map((c) => c.body)).toEqual(['h1']))

    // removing an address asks first and sends the sub-organisation's id
    await userEvent.click(within(users).getByRole('button', { name: 'bram@praktijk.nl verwijderen' }))
    const confirm = await screen.findByRole('dialog', { name: 'Gebruiker verwijderen?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Verwijderen' }))
    await waitFor(() =>
      expect(posted('/api/cms/suborganizationUserEmailDelete/{email}').map((c) => [c.params?.path, c.body])).toEqual([[{ email: 'bram@praktijk.nl' }, 's1']]),
    )
  })

  it('checks a sub-organisation’s Looptijd before sending it, and says how many subscriptions followed', async () => {
    renderTab()
    await screen.findByText('Zorggroep Zuid')
    await userEvent.click(within(screen.getAllByRole('row')[1]).getByRole('button', { name: 'Suborganisaties (1)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Suborganisaties van Zorggroep Zuid' })
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Looptijd van De Linde wijzigen' }))
    const term = await screen.findByRole('dialog', { name: 'Looptijd wijzigen' })
    const start = within(term).getByRole('textbox', { name: 'Startdatum (yyyy-mm-dd, optioneel)' })
    const end = within(term).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' })
    expect(start).toHaveValue('2026-01-01')
    expect(end).toHaveValue('2026-12-31')
    await userEvent.clear(end)
    await userEvent.type(end, '2025-01-31')
    await userEvent.click(within(term).getByRole('button', { name: 'Opslaan' }))
    expect(await within(term).findByRole('alert')).toHaveTextContent('Einddatum kan niet eerder zijn dan de startdatum.')
    await userEvent.clear(start)
    await userEvent.click(within(term).getByRole('button', { name: 'Opslaan' }))
    await waitFor(() =>
      expect(posted('/api/cms/setDurationForSubOrganization/{sub_organization_id}').map((c) => c.body)).toEqual([{ startDate: null, endDate: '2025-01-31' }]),
    )
    expect(await screen.findByText('De looptijd is opgeslagen; 2 organisatie abonnementen zijn aangepast.')).toBeInTheDocument()
  })

  it('says in the Looptijd modal, in the spec’s words, when the api refuses the date', async () => {
    renderTab()
    await screen.findByText('Zorggroep Zuid')
    await userEvent.click(screen.getByRole('button', { name: 'Looptijd van Zorggroep Zuid wijzigen' }))
    const term = await screen.findByRole('dialog', { name: 'Looptijd wijzigen' })
    // it keeps no term yet: the fields start empty, and saving moves the term to the main level
    expect(within(term).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' })).toHaveValue('')
    expect(term).toHaveTextContent('Na opslaan staat de looptijd op de hoofdorganisatie')
    await userEvent.type(within(term).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }), '2025-02-30')
    await userEvent.click(within(term).getByRole('button', { name: 'Opslaan' }))
    expect(await within(term).findByRole('alert')).toHaveTextContent('Abonnementen looptijd kon niet worden geupdate. Ongeldige datum.')
    expect(term).toHaveTextContent('Subscription kon niet worden geupdate. Ongeldige datum.')
    expect(posted('/api/cms/setDurationForMainOrganization/{main_organization_id}').map((c) => c.body)).toEqual([{ startDate: null, endDate: '2025-02-30' }])
  })

  it('edits a sub-organisation with its own term, checked in the spec’s order', async () => {
    renderTab()
    await screen.findByText('Zorggroep Zuid')
    await userEvent.click(within(screen.getAllByRole('row')[1]).getByRole('button', { name: 'Suborganisaties (1)' }))
    const dialog = await screen.findByRole('dialog', { name: 'Suborganisaties van Zorggroep Zuid' })
    await userEvent.click(await within(dialog).findByRole('button', { name: 'De Linde bewerken' }))
    const form = within(dialog).getByRole('form', { name: 'De Linde bewerken' })
    expect(within(form).getByRole('combobox', { name: 'Type' })).toHaveValue('PRACTICE')
    expect(within(form).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' })).toHaveValue('2026-12-31')
    await userEvent.clear(within(form).getByRole('textbox', { name: 'AGB-code' }))
    await userEvent.clear(within(form).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }))
    await userEvent.click(within(form).getByRole('button', { name: 'Opslaan' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent('AGBCode niet ingevuld')
    await userEvent.type(within(form).getByRole('textbox', { name: 'AGB-code' }), '0102')
    await userEvent.click(within(form).getByRole('button', { name: 'Opslaan' }))
    expect(within(form).getByRole('alert')).toHaveTextContent('Einddatum niet ingevuld')
    await userEvent.type(within(form).getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }), '2027-06-30')
    await userEvent.click(within(form).getByRole('button', { name: 'Opslaan' }))
    await waitFor(() =>
      expect(posted('/api/cms/suborganizationLinkingtoMain/{main_organization_id}').map((c) => [c.params?.path, c.body])).toEqual([
        [
          { main_organization_id: 'm1' },
          { id: 's1', organizationName: 'De Linde', agbCode: '0102', type: 'PRACTICE', productType: null, startDate: '2026-01-01', validUntil: '2027-06-30' },
        ],
      ]),
    )
    expect(await within(dialog).findByText('De Linde is opgeslagen.')).toBeInTheDocument()
  })
})
