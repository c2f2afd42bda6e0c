// The CMS's Organisaties and Organisatie abonnementen: staff add a main organisation (a message
// first), a sub-organisation with its own term, an address without an account and an existing
// account (made admin), and set its HIS; the invited address signs in and reaches /template
// without a personal subscription; a term shortened into the past turns the subscriptions
// inactive, and a term on the main level turns them on again. Both tabs and the sub-organisation
// modal are photographed at 1440 and 390 px.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { accessToken, baseUrl, emailField, pagesPerTest, pathAndQuery, screenshotDir } from './browser.mjs'

const { openAs, freshPage } = pagesPerTest({ width: 1440, height: 900 })

/** The e-mail in the api's outbox addressed to `to` whose subject is `subject`; waits for the worker to send it. */
async function mailTo(to, subject) {
  const { APP_MAIL_OUTBOX: outbox } = JSON.parse(process.env.E2E_API_ENV ?? '{}')
  assert.ok(outbox, 'E2E_API_ENV names the outbox')
  for (let attempt = 0; attempt < 100; attempt++) {
    for (const file of readdirSync(outbox).filter((f) => f.endsWith('.eml'))) {
      const text = readFileSync(join(outbox, file), 'utf8')
      if (text.includes(`To: ${to}`) && text.includes(`Subject: ${subject}`)) return text
    }
    await new Promise((wait) => setTimeout(wait, 200))
  }
  throw new Error(`no e-mail to ${to} with subject ${subject}`)
}

const bearer = (token) => ({ authorization: `Bearer ${token}` })

/** A new practitioner (made on their first call) who accepted the agreement; their address and token. */
async function newPractitioner(prefix) {
  const email = `${prefix}-${randomBytes(4).toString('hex')}@praktijk.nl`
  const token = await accessToken(baseUrl, email)
  const accepted = await fetch(`${baseUrl}/api/user/agreement`, { method: 'POST', headers: bearer(token) })
  assert.equal(accepted.status, 200)
  return { email, token }
}

/** A day `days` from today as `yyyy-mm-dd` (UTC). */
function dayFromToday(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

const tab = (page, name) => page.getByRole('tab', { name, exact: true })

/** The page does not scroll sideways: only a table's own container may. */
async function assertNoPageScroll(page, what) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
  assert.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide in a window of ${innerWidth} px`)
}

/** Waits until no transition or animation runs (a modal fading in, a switch sliding). */
async function settled(page) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
}

/**
 * Waits until `scope` says `text` in a status message: a toast on the page, or a modal's own
 * notice (the page behind an open modal, toasts included, is hidden from assistive technology).
 */
async function notice(scope, text) {
  await scope.getByRole('status').filter({ hasText: text }).first().waitFor()
}

/** The rows of the Organisatie abonnementen table for `email`, after it was read again. */
async function subscriptionRow(page, email) {
  await tab(page, 'Organisatie abonnementen').click()
  await page.getByRole('heading', { level: 2, name: 'Abonnementen via organisatie', exact: true }).waitFor()
  return page.getByRole('table', { name: 'Abonnementen via organisatie' }).getByRole('row').filter({ hasText: email })
}

describe('the CMS organisations', () => {
  it('staff build an organisation with users; the invited address gets access, and the term decides it', async () => {
    const suffix = randomBytes(3).toString('hex')
    const mainName = `Zorggroep E2E ${suffix}`
    const subName = `Praktijk De Linde ${suffix}`
    const invited = `uitgenodigd-${suffix}@praktijk.nl`
    const colleague = await newPractitioner('org-lid')

    const page = await openAs('staff@example.nl', '/cms?tab=organisaties')
    await page.getByRole('heading', { level: 2, name: 'Hoofdorganisaties', exact: true }).waitFor()
    assert.equal(await tab(page, 'Organisaties').getAttribute('aria-selected'), 'true')
    const filter = page.getByRole('group', { name: 'Toon' })
    assert.equal(await filter.getByRole('radio', { name: 'Alle' }).isChecked(), true)

    // the add row: a message first, then a main organisation that keeps no term of its own
    await page.getByRole('button', { name: 'Nieuwe hoofdorganisatie' }).click()
    const addRow = page.getByRole('row', { name: 'Nieuwe hoofdorganisatie' })
    await addRow.getByRole('textbox', { name: 'Naam' }).fill(mainName)
    await addRow.getByRole('button', { name: 'Toevoegen' }).click()
    await page.getByRole('alert').filter({ hasText: 'AGB code niet ingevuld' }).waitFor()
    // 'Looptijd op hoofdniveau' shows the start and end; this one keeps its term per sub-organisation
    const mainLevel = addRow.getByRole('checkbox', { name: 'Looptijd op hoofdniveau' })
    await mainLevel.check()
    await addRow.getByRole('textbox', { name: 'Einddatum (yyyy-mm-dd)' }).waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-organisatie-toevoegen-1440.png') })
    await mainLevel.uncheck()
    await addRow.getByRole('textbox', { name: 'AGB-code' }).fill(`0${suffix}`)
    await addRow.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Zorggroep' })
    await addRow.getByRole('combobox', { name: 'Product' }).selectOption({ label: 'Gebruikers abonnement' })
    await addRow.getByRole('button', { name: 'Toevoegen' }).click()
    await addRow.waitFor({ state: 'detached' })
    await notice(page, `${mainName} is toegevoegd.`)

    const organisations = page.getByRole('table', { name: 'Hoofdorganisaties' })
    await page.getByPlaceholder('Zoek op naam of AGB-code').fill(suffix)
    const row = organisations.getByRole('row').filter({ hasText: mainName })
    await row.getByText('Per suborganisatie').waitFor()
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(1, 6), [
      `0${suffix}`,
      'Zorggroep',
      'Gebruikers abonnement',
      'Per suborganisatie',
      'Niet actief',
    ])

    // the sub-organisation with its own term (required while the main keeps none)
    await row.getByRole('button', { name: 'Suborganisaties' }).click()
    const dialog = page.getByRole('dialog', { name: `Suborganisaties van ${mainName}` })
    await dialog.getByText('Deze hoofdorganisatie heeft nog geen suborganisaties.').waitFor()
    const addSub = dialog.getByRole('form', { name: 'Suborganisatie toevoegen' })
    assert.equal(await addSub.getByLabel('Type').inputValue(), 'PRACTICE')
    await addSub.getByLabel('Naam').fill(subName)
    await addSub.getByLabel('AGB-code').fill(`1${suffix}`)
    await addSub.getByRole('button', { name: 'Toevoegen' }).click()
    await addSub.getByRole('alert').filter({ hasText: 'Einddatum niet ingevuld' }).waitFor()
    await addSub.getByLabel('Startdatum (yyyy-mm-dd)').fill(dayFromToday(-30))
    await addSub.getByLabel('Einddatum (yyyy-mm-dd)').fill(dayFromToday(365))
    await addSub.getByRole('button', { name: 'Toevoegen' }).click()
    const card = dialog.getByRole('listitem', { name: subName })
    await card.getByText('Actief', { exact: true }).waitFor()
    await card.getByText(`AGB-code 1${suffix} · Praktijk · Leeg`).waitFor()

    // an address without an account, typed in capitals: stored in lower case, waiting for its account
    const users = card.getByRole('list', { name: `Gebruikers van ${subName}` })
    const addUser = card.getByRole('form', { name: `Gebruiker toevoegen: ${subName}` })
    assert.equal(await addUser.getByRole('checkbox', { name: 'Registratiemail versturen' }).isChecked(), true)
    assert.equal(await addUser.getByRole('checkbox', { name: 'Beheerder' }).isChecked(), false)
    await addUser.getByLabel('E-mailadres').fill(invited.toUpperCase())
    await addUser.getByRole('button', { name: 'Gebruiker toevoegen' }).click()
    const waiting = users.getByRole('listitem').filter({ hasText: invited })
    await waiting.getByText('Nog geen account').waitFor()
    // the invitation lands in the outbox, in Dutch, with plain text and HTML
    const invitation = await mailTo(invited, `Uitnodiging voor Spreekkamer via ${mainName}`)
    assert.match(invitation, /text\/plain/)
    assert.match(invitation, /text\/html/)
    // the same address again, in other letters
    await addUser.getByLabel('E-mailadres').fill(` ${invited} `)
    await addUser.getByRole('button', { name: 'Gebruiker toevoegen' }).click()
    await addUser.getByRole('alert').filter({ hasText: 'Gebruiker is al toegevoegd' }).waitFor()

    // an existing account, made admin
    await addUser.getByLabel('E-mailadres').fill(colleague.email)
    await addUser.getByRole('button', { name: 'Gebruiker toevoegen' }).click()
    const member = users.getByRole('listitem').filter({ hasText: colleague.email })
    const admin = member.getByRole('switch', { name: 'Beheerder' })
    await admin.waitFor()
    assert.equal(await admin.getAttribute('aria-checked'), 'false')
    await admin.click()
    await notice(dialog, `${colleague.email} is nu beheerder.`)
    await member.locator('[role="switch"][aria-checked="true"]').waitFor()

    // the HIS of the sub-organisation
    await card.getByRole('combobox', { name: `HIS van ${subName}` }).selectOption({ label: 'Medicom' })
    await notice(dialog, `De HIS van ${subName} is nu Medicom.`)
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-suborganisaties-1440.png') })
    await dialog.getByRole('button', { name: 'Sluit', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    await row.getByText('Actief', { exact: true }).waitFor()

    // Organisatie abonnementen: both active, within the sub-organisation's term
    const invitedRow = await subscriptionRow(page, invited)
    await invitedRow.getByText('Actief', { exact: true }).waitFor()
    const cells = await invitedRow.getByRole('cell').allTextContents()
    assert.deepEqual([cells[0], cells[1], cells[2], cells[4]], [mainName, invited, subName, 'Actief'])
    assert.match(cells[3], /^\d{1,2} \S+ \d{4} – \d{1,2} \S+ \d{4}$/)
    const colleagueRow = page.getByRole('table', { name: 'Abonnementen via organisatie' }).getByRole('row').filter({ hasText: colleague.email })
    await colleagueRow.getByText('Actief', { exact: true }).waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-organisatie-abonnementen-gevuld-1440.png'), fullPage: true })

    // the invited address signs in and reaches the templates without a personal subscription
    const invitedToken = await accessToken(baseUrl, invited)
    const accepted = await fetch(`${baseUrl}/api/user/agreement`, { method: 'POST', headers: bearer(invitedToken) })
    assert.equal(accepted.status, 200)
    const personal = await fetch(`${baseUrl}/payment/subscription/hasUserActiveSubscription`, { headers: bearer(invitedToken) })
    assert.equal(await personal.json(), false, 'no personal subscription')
    const fresh = await freshPage({ viewport: { width: 1440, height: 900 } })
    await fresh.page.goto('/template')
    await emailField(fresh.page).fill(invited)
    await fresh.page.getByRole('button', { name: 'Inloggen', exact: true }).click()
    await fresh.page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    assert.ok(pathAndQuery(fresh.page).startsWith('/template'), `on ${pathAndQuery(fresh.page)}`)

    // now an account of the sub-organisation
    await tab(page, 'Organisaties').click()
    await row.getByRole('button', { name: 'Suborganisaties' }).click()
    await users.getByRole('listitem').filter({ hasText: invited }).getByRole('switch', { name: 'Beheerder' }).waitFor()
    assert.equal(await users.getByText('Nog geen account').count(), 0)

    // a term in the past: a wrong order first, then every subscription of it inactive
    await card.getByRole('button', { name: `Looptijd van ${subName} wijzigen` }).click()
    const term = page.getByRole('dialog', { name: 'Looptijd wijzigen' })
    await term.getByLabel('Startdatum (yyyy-mm-dd, optioneel)').fill(dayFromToday(-30))
    await term.getByLabel('Einddatum (yyyy-mm-dd)').fill(dayFromToday(-60))
    await term.getByRole('button', { name: 'Opslaan' }).click()
    await term.getByRole('alert').filter({ hasText: 'Einddatum kan niet eerder zijn dan de startdatum.' }).waitFor()
    await term.getByLabel('Startdatum (yyyy-mm-dd, optioneel)').fill(dayFromToday(-90))
    await term.getByRole('button', { name: 'Opslaan' }).click()
    await term.waitFor({ state: 'hidden' })
    await notice(dialog, 'De looptijd is opgeslagen; 2 organisatie abonnementen zijn aangepast.')
    await card.getByText('Niet actief', { exact: true }).waitFor()
    await dialog.getByRole('button', { name: 'Sluit', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })

    const ended = await subscriptionRow(page, invited)
    await ended.getByText('Niet actief', { exact: true }).waitFor()
    await page.getByRole('table', { name: 'Abonnementen via organisatie' }).getByRole('row').filter({ hasText: colleague.email }).getByText('Niet actief', { exact: true }).waitFor()
    const access = await fetch(`${baseUrl}/api/user/hasUserActiveOrganizationSubscription`, { headers: bearer(invitedToken) })
    assert.equal(await access.json(), false, 'no organisation access after the term ended')
    // 'Alleen actieve abonnementen' leaves them out
    await page.getByRole('switch', { name: 'Alleen actieve abonnementen' }).click()
    await ended.waitFor({ state: 'detached' })
    await page.getByRole('switch', { name: 'Alleen actieve abonnementen' }).click()

    // the main organisation's Looptijd: from now on kept there, and the subscriptions active again
    await tab(page, 'Organisaties').click()
    await row.getByRole('button', { name: `Looptijd van ${mainName} wijzigen` }).click()
    await term.getByLabel('Einddatum (yyyy-mm-dd)').fill('31-12-2030')
    await term.getByRole('button', { name: 'Opslaan' }).click()
    await term.getByRole('alert').filter({ hasText: 'Einddatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30' }).waitFor()
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-cms-looptijd-1440.png') })
    await term.getByLabel('Einddatum (yyyy-mm-dd)').fill('2030-12-31')
    await term.getByRole('button', { name: 'Opslaan' }).click()
    await term.waitFor({ state: 'hidden' })
    await row.getByText('tot en met 31 december 2030').waitFor()
    await row.getByText('Actief', { exact: true }).waitFor()
    const again = await subscriptionRow(page, invited)
    await again.getByText('Actief', { exact: true }).waitFor()
    await again.getByText('tot en met 31 december 2030').waitFor()

    // the audit log holds the changes
    await tab(page, 'Auditlog').click()
    await page.getByPlaceholder('Zoek in het log').fill(subName)
    const audit = page.getByRole('table', { name: 'Auditlog' })
    await audit.getByRole('row').nth(2).waitFor()
    const logs = await audit.locator('tbody tr td:first-child').allTextContents()
    assert.ok(logs.some((log) => /Medicom/.test(log)), `the HIS in the audit log:\n${logs.join('\n')}`)
  })

  it('shows both tabs and the sub-organisation modal at 1440 and 390 px without the page scrolling sideways', async () => {
    for (const width of [1440, 390]) {
      const page = await openAs('staff@example.nl', '/cms?tab=organisaties', width)
      await page.getByRole('heading', { level: 2, name: 'Hoofdorganisaties', exact: true }).waitFor()
      const organisations = page.getByRole('table', { name: 'Hoofdorganisaties' })
      await page.getByText('Laden…').first().waitFor({ state: 'detached' })
      await assertNoPageScroll(page, `Organisaties at ${width} px`)
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-cms-organisaties-gevuld-${width}.png`), fullPage: true })

      // the first organisation with a sub-organisation
      const row = organisations.getByRole('row').filter({ has: page.getByRole('button', { name: /^Suborganisaties \([1-9]\d*\)$/ }) }).first()
      await row.getByRole('button', { name: 'Suborganisaties' }).click()
      const dialog = page.getByRole('dialog', { name: /^Suborganisaties van / })
      await dialog.getByRole('listitem').first().waitFor()
      await settled(page)
      await assertNoPageScroll(page, `the sub-organisation modal at ${width} px`)
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-cms-suborganisaties-modal-${width}.png`) })
      await dialog.getByRole('button', { name: 'Sluit', exact: true }).scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-cms-suborganisaties-modal-onder-${width}.png`) })
      await dialog.getByRole('button', { name: 'Sluit', exact: true }).click()
      await dialog.waitFor({ state: 'hidden' })

      await page.goto('/cms?tab=organisatie-abonnementen')
      await page.getByRole('heading', { level: 2, name: 'Abonnementen via organisatie', exact: true }).waitFor()
      await page.getByText('Laden…').first().waitFor({ state: 'detached' })
      await page.getByRole('switch', { name: 'Verwijder dubbele abonnementen' }).click()
      await settled(page)
      await assertNoPageScroll(page, `Organisatie abonnementen at ${width} px`)
      await page.screenshot({ path: join(screenshotDir, `spreekkamer-cms-organisatie-abonnementen-dubbel-${width}.png`), fullPage: true })
    }
  })
})
