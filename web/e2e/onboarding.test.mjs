import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import { freshPage, launchBrowser, pathAndQuery, screenshotDir, signInAs } from './browser.mjs'

const HEADING = 'We graag willen nog een aantal vragen stellen..'
const NAME = 'Met welke naam wil je aangesproken worden?'
const AGB = 'AGB-code van de praktijk'
const ROLE = 'Wat is je rol?'
const PRACTITIONER = 'Ben je waarnemend of praktijkhoudend?'

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

const greeting = (page) => page.getByRole('heading', { level: 1, name: /^Welkom/ })
const question = (page, legend) => page.getByRole('group', { name: legend })
const choice = (page, legend, answer) => question(page, legend).getByRole('radio', { name: answer, exact: true })

/** Waits for the questionnaire with the stored answers in it (the fields appear once they are loaded). */
async function questionnaire(page) {
  await page.getByRole('heading', { level: 1, name: HEADING }).waitFor()
  await page.getByLabel(NAME).waitFor()
  assert.equal(pathAndQuery(page), '/onboarding/')
}

/** Clicks 'Opslaan' and gives the api's answer to the save. */
async function save(page) {
  const response = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/user/onboarding/info',
  )
  await page.getByRole('button', { name: 'Opslaan', exact: true }).click()
  return response
}

describe('onboarding', () => {
  it('fills in the profile, refuses a wrong AGB code, and greets by the new name on Home', async () => {
    const preferredName = `Dokter Jansen ${randomBytes(3).toString('hex')}`
    const fresh = await freshPage(browser)
    context = fresh.context
    const { page } = fresh
    await page.goto('/')
    await signInAs(page, 'poh@example.nl')
    assert.equal(await greeting(page).textContent(), 'Welkom, poh')

    // from Home's card
    await page.getByRole('link', { name: /Profiel aanvullen/ }).click()
    await questionnaire(page)
    assert.equal(await page.getByLabel(NAME).inputValue(), '')
    assert.equal(await question(page, PRACTITIONER).count(), 0, 'asked of an Arts only')

    await page.getByLabel(NAME).fill(preferredName)
    await page.getByLabel('Telefoonnummer').fill('020 123 4567')
    await page.getByLabel('Naam van de praktijk of organisatie').fill('Huisartsenpraktijk De Linde')
    await choice(page, ROLE, 'Arts').check()
    await choice(page, PRACTITIONER, 'Waarnemend').check()
    await page.getByLabel(AGB).fill('1234')
    const register = page.getByRole('link', { name: /AGB-register/ })
    assert.equal(await register.getAttribute('href'), 'https://www.vektis.nl/agb-register')
    assert.equal(await register.getAttribute('target'), '_blank')

    // refused: the message and the api's reason; the page and everything typed stay
    const refused = await save(page)
    assert.equal(refused.status(), 400)
    const alert = page.getByRole('alert').filter({ hasText: 'Informatie kon niet worden opgeslagen.' })
    await alert.waitFor()
    assert.match(await alert.textContent(), /Een AGB-code bestaat uit 8 cijfers\./)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-onboarding.png'), fullPage: true })
    assert.equal(pathAndQuery(page), '/onboarding/')
    assert.equal(await page.getByLabel(NAME).inputValue(), preferredName)
    assert.equal(await page.getByLabel(AGB).inputValue(), '1234')
    assert.ok(await choice(page, ROLE, 'Arts').isChecked())
    assert.ok(await choice(page, PRACTITIONER, 'Waarnemend').isChecked())

    // saved: Home greets by the new name
    await page.getByLabel(AGB).fill('01012345')
    assert.equal((await save(page)).status(), 200)
    await page.getByRole('heading', { level: 1, name: `Welkom, ${preferredName}` }).waitFor()
    assert.equal(pathAndQuery(page), '/')

    // from the user menu: the stored answers are filled in
    await page.getByRole('button', { name: /Gebruikersmenu openen/ }).click()
    await page.getByRole('menuitem', { name: 'Your Profile' }).click()
    await questionnaire(page)
    assert.equal(await page.getByLabel(NAME).inputValue(), preferredName)
    assert.equal(await page.getByLabel('Telefoonnummer').inputValue(), '020 123 4567')
    assert.equal(await page.getByLabel(AGB).inputValue(), '01012345')
    assert.equal(await page.getByLabel('Naam van de praktijk of organisatie').inputValue(), 'Huisartsenpraktijk De Linde')
    assert.ok(await choice(page, ROLE, 'Arts').isChecked())
    assert.ok(await choice(page, PRACTITIONER, 'Waarnemend').isChecked())

    // another role: the practitioner question goes; 'Niet opslaan' keeps what was stored
    await choice(page, ROLE, 'Anders').check()
    await question(page, PRACTITIONER).waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'Niet opslaan' }).click()
    await page.getByRole('heading', { level: 1, name: `Welkom, ${preferredName}` }).waitFor()
    assert.equal(pathAndQuery(page), '/')

    // opened directly, with its slash; the stored profile is unchanged. Leave poh as the other tests expect it:
    // no preferred name, so Home greets by the login name again.
    await page.goto('/onboarding/')
    await questionnaire(page)
    assert.ok(await choice(page, ROLE, 'Arts').isChecked(), "'Niet opslaan' saved nothing")
    await page.getByLabel(NAME).fill('')
    await page.getByLabel('Telefoonnummer').fill('')
    await page.getByLabel(AGB).fill('')
    await page.getByLabel('Naam van de praktijk of organisatie').fill('')
    await choice(page, ROLE, 'Anders').check()
    const cleared = await save(page)
    assert.equal(cleared.status(), 200)
    assert.deepEqual(await cleared.json(), {
      preferredUsername: null,
      phoneNumber: null,
      AGBCode: null,
      organizationName: null,
      userKind: 'ANDERS',
      practitionerKind: null,
    })
    await page.getByRole('heading', { level: 1, name: 'Welkom, poh' }).waitFor()
  })
})
