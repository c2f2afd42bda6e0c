// The retiring environment: an api of its own with APP_NEW_ENVIRONMENT_URL (a local stand-in for
// the new environment) and APP_NEW_ENVIRONMENT_DATE. Only consult, cms and subscription pages stay
// open, and any page with ?compatibility=true; they show the green banner (but the consult pages);
// every other page says Spreekkamer is renewed and then goes to the new environment.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { freshPage, headingsSeen, launchBrowser, pathAndQuery, screenshotDir, signInAs } from './browser.mjs'
import { startApi, startSite } from './servers.mjs'

const RENEWED = 'Spreekkamer is vernieuwd'

let browser
let api
let newEnvironment
let context

before(async () => {
  newEnvironment = await startSite('Nieuwe omgeving')
  api = await startApi('retiring', {
    APP_NEW_ENVIRONMENT_URL: `${newEnvironment.origin}/nieuw`,
    APP_NEW_ENVIRONMENT_DATE: '2026-10-18',
  })
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
  await api?.stop()
  await newEnvironment?.close()
})

afterEach(async () => {
  await context?.close()
  context = undefined
})

async function open(path) {
  const fresh = await freshPage(browser, { baseURL: api.url })
  context = fresh.context
  const headings = await headingsSeen(fresh.page)
  await fresh.page.goto(path)
  return { page: fresh.page, headings }
}

const banner = (page) => page.getByRole('region', { name: 'Nieuwe omgeving' })

describe('retiring environment', () => {
  it('shows that Spreekkamer is renewed on a closed page, then goes to the new environment', async () => {
    const { page } = await open('/template')
    await page.getByRole('heading', { level: 1, name: RENEWED }).waitFor()
    await page.getByText('Je wordt zo doorgestuurd naar de nieuwe omgeving.').waitFor()
    assert.equal(await page.getByRole('link', { name: 'Ga naar de nieuwe omgeving' }).getAttribute('href'), `${newEnvironment.origin}/nieuw`)
    // before signing in, and without the application's frame
    assert.equal(pathAndQuery(page), '/template')
    assert.equal(await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).count(), 0)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-vernieuwd.png') })

    await page.waitForURL(`${newEnvironment.origin}/nieuw`)
    await page.getByRole('heading', { level: 1, name: 'Nieuwe omgeving' }).waitFor()
  })

  it('closes the first version of the consult too', async () => {
    const { page } = await open('/consult/v1/audio')
    await page.getByRole('heading', { level: 1, name: RENEWED }).waitFor()
    await page.waitForURL(`${newEnvironment.origin}/nieuw`)
  })

  it('keeps every page open with compatibility=true, with the banner, while navigating', async () => {
    const { page, headings } = await open('/?compatibility=true')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: /^Welkom/ }).waitFor()
    assert.equal(pathAndQuery(page), '/?compatibility=true')
    await banner(page).getByText('Deze pagina werkt vanaf 18 oktober niet meer.').waitFor()
    assert.equal(await banner(page).getByRole('link', { name: 'Ga naar de nieuwe omgeving' }).getAttribute('href'), `${newEnvironment.origin}/nieuw`)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-banner.png') })

    // the parameter stays in the address
    await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).getByRole('link', { name: 'Templates' }).click()
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    assert.equal(pathAndQuery(page), '/template?compatibility=true')
    await banner(page).waitFor()

    // and opening it directly
    await page.goto('/template?compatibility=true')
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    await banner(page).waitFor()
    assert.ok(!headings.has(RENEWED), `seen: ${[...headings].join(' | ')}`)
    assert.equal(new URL(page.url()).origin, api.url)
  })

  it('keeps the consult page open, without the banner', async () => {
    const { page, headings } = await open('/audioconsult/beta/soap')
    await signInAs(page, 'huisarts@example.nl')
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    assert.equal(pathAndQuery(page), '/audioconsult/beta/soap')
    assert.equal(await banner(page).count(), 0)
    assert.ok(!headings.has(RENEWED), `seen: ${[...headings].join(' | ')}`)
  })
})
