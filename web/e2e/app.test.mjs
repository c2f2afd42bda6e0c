import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { baseUrl, emailField, freshPage, launchBrowser, pathAndQuery, screenshotDir, signInAs } from './browser.mjs'

const MAIN_LINKS = ['Overzicht', 'Templates', 'Status', 'FAQ', 'Abonnementen']

let browser
let context

before(async () => {
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
})

afterEach(async () => {
  await context?.close()
  context = undefined
})

async function open(path, options) {
  const fresh = await freshPage(browser, options)
  context = fresh.context
  await fresh.page.goto(path)
  return fresh.page
}

const mainNav = (page) => page.getByRole('navigation', { name: 'Hoofdnavigatie' })

async function currentLinks(page) {
  return mainNav(page).locator('a[aria-current="page"]').allTextContents()
}

describe('signing in', () => {
  it('returns to the deep link with its query string after signing in', async () => {
    const page = await open('/status?bron=e2e&pagina=2')
    await emailField(page).waitFor()
    assert.equal(new URL(page.url()).pathname, '/oidc/auth')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor()
    assert.equal(pathAndQuery(page), '/status?bron=e2e&pagina=2')
    assert.equal(new URL(page.url()).origin, baseUrl)
  })
})

describe('a failed sign-in', () => {
  it("shows 'Login failed' and lets the user try again", async () => {
    const page = await open('/auth/callback?code=onbekend&state=onbekend')
    await page.getByRole('heading', { name: 'Login failed' }).waitFor()
    await page.getByRole('button', { name: 'Opnieuw inloggen' }).click()
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
    assert.equal(pathAndQuery(page), '/')
  })
})

describe('Home', () => {
  it('greets the user by the preferred name from the profile', async () => {
    const page = await open('/')
    await signInAs(page, 'huisarts@example.nl')
    const heading = page.getByRole('heading', { level: 1 })
    await heading.filter({ hasText: 'Welkom' }).waitFor()
    assert.equal(await heading.textContent(), 'Welkom, Anne de Vries')
    assert.equal(await page.getByTestId('action-card').count(), 8)
    // this environment is not being retired (no APP_NEW_ENVIRONMENT_*): no banner
    assert.equal(await page.getByRole('region', { name: 'Nieuwe omgeving' }).count(), 0)
    assert.equal(await page.getByText('Ga naar de nieuwe omgeving').count(), 0)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-home.png'), fullPage: true })
  })

  it('greets the user by the login name without a preferred name', async () => {
    const page = await open('/')
    await signInAs(page, 'poh@example.nl')
    const heading = page.getByRole('heading', { level: 1 })
    await heading.filter({ hasText: 'Welkom' }).waitFor()
    assert.equal(await heading.textContent(), 'Welkom, poh')
  })
})

describe('navigation bar', () => {
  it('marks the link of the current page', async () => {
    const page = await open('/status')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Status' }).waitFor()
    assert.deepEqual(await mainNav(page).getByRole('link').allTextContents(), MAIN_LINKS)
    assert.deepEqual(await currentLinks(page), ['Status'])

    await mainNav(page).getByRole('link', { name: 'Overzicht' }).click()
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
    assert.equal(pathAndQuery(page), '/')
    assert.deepEqual(await currentLinks(page), ['Overzicht'])
  })

  it('opens the collapsible panel with the five links on a small screen', async () => {
    const page = await open('/', { viewport: { width: 375, height: 812 } })
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
    assert.equal(await mainNav(page).filter({ visible: true }).count(), 0, 'no visible main links before opening the panel')

    await page.getByRole('button', { name: 'Hoofdmenu openen' }).click()
    const panel = mainNav(page).filter({ visible: true })
    await panel.waitFor()
    assert.deepEqual(await panel.getByRole('link').allTextContents(), MAIN_LINKS)
    for (const name of MAIN_LINKS) assert.ok(await panel.getByRole('link', { name }).isVisible(), `${name} is visible`)
    assert.deepEqual(await panel.locator('a[aria-current="page"]').allTextContents(), ['Overzicht'])
  })

  it('shows the Dutch not-found page for an address the application does not know yet', async () => {
    const page = await open('/template/onbekend')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' }).waitFor()
    assert.deepEqual(await currentLinks(page), ['Templates'])
    await page.getByRole('link', { name: 'Naar Overzicht', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
  })
})

describe('signing out', () => {
  it('leads to the sign-in page from the user menu', async () => {
    const page = await open('/')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
    await page.getByRole('button', { name: /Gebruikersmenu openen/ }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await emailField(page).waitFor()
    assert.equal(new URL(page.url()).pathname, '/oidc/auth')
  })

  it('leads to the sign-in page from the Log out icon', async () => {
    const page = await open('/faq')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Veelgestelde vragen' }).waitFor()
    await page.getByTitle('Log out').click()
    await emailField(page).waitFor()
    assert.equal(new URL(page.url()).pathname, '/oidc/auth')
  })
})

describe('the agreement gate', () => {
  async function assertOnlyAgreement(page) {
    await page.getByRole('heading', { level: 1, name: 'Welkom' }).waitFor()
    assert.equal(await page.getByRole('navigation').count(), 0, 'no navigation')
    for (const name of MAIN_LINKS) assert.equal(await page.getByRole('link', { name }).count(), 0, `no ${name} link`)
    assert.equal(await page.getByTestId('action-card').count(), 0, 'no action cards')
    assert.equal(await page.getByTitle('Log out').count(), 0, 'no Log out icon')
    assert.ok(await page.getByRole('button', { name: 'Uitloggen' }).isVisible())
    assert.match(await page.locator('main').textContent(), /gebruikersovereenkomst/)
  }

  it('shows only the agreement screen to a user who has not accepted it', async () => {
    const page = await open('/')
    await signInAs(page, 'nieuw@example.nl')
    await assertOnlyAgreement(page)
  })

  it('shows only the agreement screen when such a user opens another page directly', async () => {
    const page = await open('/status')
    await signInAs(page, 'nieuw@example.nl')
    await assertOnlyAgreement(page)
    assert.equal(await page.getByRole('heading', { name: 'Status' }).count(), 0)

    await page.goto('/faq')
    await assertOnlyAgreement(page)
  })

  it('lets such a user sign out', async () => {
    const page = await open('/')
    await signInAs(page, 'nieuw@example.nl')
    await page.getByRole('button', { name: 'Uitloggen' }).click()
    await emailField(page).waitFor()
  })
})

describe('pages', () => {
  it('shows the account on Settings and the service state on Status', async () => {
    const page = await open('/settings')
    await signInAs(page, 'poh@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Instellingen' }).waitFor()
    const account = await page.locator('dl').textContent()
    for (const text of ['poh@example.nl', 'poh', 'Niet ingevuld', 'default-roles-spreekkamer', 'Ja']) {
      assert.ok(account.includes(text), `Settings shows ${text}`)
    }

    await mainNav(page).getByRole('link', { name: 'Status' }).click()
    await page.getByText('Spreekkamer werkt naar behoren').waitFor()
    assert.ok(await page.getByText('Database').isVisible())
  })
})
