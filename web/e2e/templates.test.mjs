import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { pagesPerTest, pathAndQuery, screenshotDir } from './browser.mjs'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const ENTRY_PAGE = new RegExp(`/template/entry/(${UUID})$`)
const GROUP_PAGE = new RegExp(`/template/group/(${UUID})$`)

const { openAs } = pagesPerTest()

/** Waits for the autosave (or 'Opslaan') call of an entry or a group that `action` causes; on a
 * loaded machine a save has taken over the default 15 s. */
async function saving(page, kind, action) {
  const response = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new RegExp(`/api/template/${kind}/${UUID}$`).test(new URL(r.url()).pathname),
    { timeout: 30_000 },
  )
  await action()
  const answer = await response
  assert.equal(answer.status(), 200, `the ${kind} was saved`)
  return answer.json()
}

/** Creates a private entry of the given type through /template/entry/new/private; gives its id. */
async function createPrivateEntry(page, type) {
  await page.getByRole('link', { name: 'Nieuwe privé regel' }).click()
  await page.getByRole('heading', { level: 1, name: 'Nieuwe privé template regel' }).waitFor()
  assert.equal(pathAndQuery(page), '/template/entry/new/private')
  await page.getByRole('radio', { name: type, exact: true }).check()
  await page.getByRole('button', { name: 'Aanmaken' }).click()
  await page.getByRole('heading', { level: 1, name: 'Template regel bewerken' }).waitFor()
  const match = ENTRY_PAGE.exec(new URL(page.url()).pathname)
  assert.ok(match, `on an entry's page, not ${page.url()}`)
  return match[1]
}

/**
 * Chooses the option `name` of the open combobox. On the option's mouseup the combobox asks for
 * an animation frame to give its input the focus back; this waits until that frame has run, so a
 * field the test fills next is not left (and autosaved) behind the test's back.
 */
async function choose(page, name) {
  await page.getByRole('option', { name }).click()
  await page.evaluate(() => new Promise((framed) => requestAnimationFrame(() => framed())))
}

/** Picks an ICPC code from the suggestions for what is typed; waits for the autosave. */
async function addCode(page, typed, code) {
  await page.getByLabel('ICPC-code toevoegen').fill(typed)
  const saved = await saving(page, 'entry', () => choose(page, new RegExp(`^${code} `)))
  assert.ok(saved.codes.includes(code), `${code} is saved`)
  await page.getByRole('button', { name: `${code} verwijderen` }).waitFor()
}

describe('templates', () => {
  it('creates an entry with ICPC codes, groups it and deletes it again', async () => {
    const suffix = randomBytes(3).toString('hex')
    const title = `Bloeddruk controleren ${suffix}`
    const groupTitle = `Hart en vaten ${suffix}`

    const page = await openAs('huisarts@example.nl', '/template')
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    assert.equal(await page.getByRole('tab', { name: 'Template regels' }).getAttribute('aria-selected'), 'true')

    // a private Plan entry, two codes found by search, a title saved on blur
    const id = await createPrivateEntry(page, 'Plan')
    assert.match(await page.locator('main').textContent(), /Type: Plan/)
    await addCode(page, 'hypert', 'K86')
    await addCode(page, 'T90', 'T90')
    // choosing a code again changes nothing
    await page.getByLabel('ICPC-code toevoegen').fill('K86')
    await choose(page, /^K86 /)
    assert.equal(await page.getByRole('button', { name: /verwijderen$/ }).count(), 2)

    await page.getByLabel('Titel').fill(title)
    const saved = await saving(page, 'entry', () => page.getByLabel('Titel').blur())
    assert.equal(saved.title, title)
    assert.deepEqual(saved.codes, ['K86', 'T90'])

    // all of it was kept
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Template regel bewerken' }).waitFor()
    assert.equal(await page.getByLabel('Titel').inputValue(), title)
    await page.getByRole('button', { name: 'K86 verwijderen' }).waitFor()
    await page.getByRole('button', { name: 'T90 verwijderen' }).waitFor()

    // found on /template with the search box
    await page.getByRole('link', { name: 'Terug' }).first().click()
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    const entriesPanel = page.getByRole('tabpanel', { name: 'Template regels' })
    await entriesPanel.getByRole('searchbox', { name: 'Zoeken' }).fill(`controleren ${suffix}`)
    const row = entriesPanel.getByRole('row').filter({ hasText: title })
    await row.waitFor()
    await entriesPanel.getByText('Resultaat 1 tot 1 van 1 regel').waitFor()
    assert.equal(await entriesPanel.locator('tbody tr').count(), 1)
    assert.match(await row.textContent(), /K86.*T90.*Plan.*Anne de Vries/)

    // the preview shows type, codes and text
    await row.getByRole('button', { name: /^Bekijken/ }).click()
    const preview = page.getByRole('dialog', { name: 'Template inhoud' })
    await preview.waitFor()
    assert.match(await preview.textContent(), /Plan.*K86.*T90/)
    await preview.getByRole('button', { name: 'Sluiten' }).click()
    await preview.waitFor({ state: 'detached' })
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-templates.png'), fullPage: true })

    // a new group, with the entry added through the group's entry search
    await page.getByRole('tab', { name: 'Template groepen' }).click()
    await page.waitForURL((url) => url.search === '?tab=groepen')
    const groupsPanel = page.getByRole('tabpanel', { name: 'Template groepen' })
    await groupsPanel.getByRole('button', { name: 'Nieuwe privé groep' }).click()
    await page.getByRole('heading', { level: 1, name: 'Template groep bewerken' }).waitFor()
    assert.match(new URL(page.url()).pathname, GROUP_PAGE)
    assert.equal(await page.getByLabel('Titel').inputValue(), 'Nieuwe groep')
    await page.getByLabel('Titel').fill(groupTitle)
    await page.getByLabel('Template regel toevoegen').fill(title)
    await choose(page, new RegExp(`^${title}`))
    const entries = page.getByRole('region', { name: 'Regels in deze groep' })
    await entries.getByRole('link', { name: title }).waitFor()
    await page.screenshot({ path: join(screenshotDir, 'spreekkamer-template-group.png'), fullPage: true })
    await page.getByRole('button', { name: 'Opslaan' }).click()
    await page.waitForURL((url) => url.pathname === '/template' && url.search === '?tab=groepen')
    const groupRow = groupsPanel.getByRole('row').filter({ hasText: groupTitle })
    await groupRow.waitFor()

    // the group kept its entry, which links to the entry's page
    await groupRow.getByRole('link', { name: /^Bewerken/ }).click()
    await page.getByRole('heading', { level: 1, name: 'Template groep bewerken' }).waitFor()
    assert.equal(await page.getByLabel('Titel').inputValue(), groupTitle)
    await entries.getByRole('link', { name: title }).click()
    await page.getByRole('heading', { level: 1, name: 'Template regel bewerken' }).waitFor()
    assert.equal(new URL(page.url()).pathname, `/template/entry/${id}`)

    // deleted after confirming, from the list
    await page.goto('/template')
    await entriesPanel.getByRole('searchbox', { name: 'Zoeken' }).fill(`controleren ${suffix}`)
    await row.waitFor()
    await row.getByRole('button', { name: /^Verwijderen/ }).click()
    const confirm = page.getByRole('dialog', { name: 'Template entry verwijderen?' })
    await confirm.waitFor()
    await confirm.getByRole('button', { name: 'Verwijderen' }).click()
    await entriesPanel.getByText('Geen template regels gevonden.').waitFor()
    assert.equal(await row.count(), 0)
    await entriesPanel.getByText('Geen resultaten').waitFor()

    // and gone from its page
    await page.goto(`/template/entry/${id}`)
    await page.getByRole('heading', { level: 1, name: 'Template niet gevonden' }).waitFor()
  })

  it("shows 'Template niet gevonden' with the id, and 'Geen toegang tot template' for someone else's private entry", async () => {
    const missing = '00000000-0000-4000-8000-000000000000'
    const page = await openAs('huisarts@example.nl', `/template/entry/${missing}`)
    await page.getByRole('heading', { level: 1, name: 'Template niet gevonden' }).waitFor()
    assert.ok((await page.locator('main').textContent()).includes(missing), 'the id is shown')
    await page.getByRole('link', { name: 'Terug', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()

    const id = await createPrivateEntry(page, 'Subjectief')

    const other = await openAs('poh@example.nl', `/template/entry/${id}`)
    await other.getByRole('heading', { level: 1, name: 'Geen toegang tot template' }).waitFor()
    await other.getByRole('link', { name: 'Terug', exact: true }).click()
    await other.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    assert.equal(new URL(other.url()).pathname, '/template')
  })

  it("shows a shared entry's owner to others by preferred name, else as 'Collega', never by login name", async () => {
    const owner = await openAs('poh@example.nl', '/template')
    await owner.getByRole('link', { name: 'Nieuwe openbare regel' }).click()
    await owner.getByRole('heading', { level: 1, name: 'Nieuwe openbare template regel' }).waitFor()
    await owner.getByRole('radio', { name: 'Plan', exact: true }).check()
    await owner.getByRole('button', { name: 'Aanmaken' }).click()
    await owner.getByRole('heading', { level: 1, name: 'Template regel bewerken' }).waitFor()
    const [, id] = ENTRY_PAGE.exec(new URL(owner.url()).pathname)
    // the owner, without a preferred name, sees their own login name
    await owner.getByText('Eigenaar: poh', { exact: true }).waitFor()

    const other = await openAs('huisarts@example.nl', `/template/entry/${id}`)
    await other.getByRole('heading', { level: 1, name: 'Template regel', exact: true }).waitFor()
    await other.getByText('Eigenaar: Collega', { exact: true }).waitFor()
    const shown = await other.locator('main').textContent()
    assert.ok(!shown.includes('poh'), `the login name is not shown: ${shown}`)
  })

  it("keeps a field whose save failed marked 'Niet opgeslagen' after the 1 s toast, until a save succeeds", async () => {
    const page = await openAs('huisarts@example.nl', '/template')
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()
    await createPrivateEntry(page, 'Objectief')

    // the next save of the entry fails once
    let refused = 0
    await page.route(new RegExp(`/api/template/entry/${UUID}$`), async (route) => {
      if (route.request().method() !== 'POST' || refused > 0) return route.fallback()
      refused++
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'unavailable', message: 'Even niet.' }) })
    })
    const title = page.getByLabel('Titel')
    await title.fill('Bloeddruk meten')
    await title.blur()
    await page.getByText('Het lukt op dit moment niet om de template entry op te slaan').waitFor()
    // the toast goes after its second; the mark stays
    await page.getByText('Het lukt op dit moment niet om de template entry op te slaan').waitFor({ state: 'detached', timeout: 5_000 })
    await page.getByTestId('unsaved').waitFor()
    assert.equal(await page.getByTestId('unsaved').textContent(), 'Niet opgeslagen')
    assert.equal(await title.getAttribute('aria-invalid'), 'true')
    assert.match(await page.getByRole('status').filter({ hasText: 'Niet alle wijzigingen' }).textContent(), /^Niet alle wijzigingen zijn opgeslagen\./)

    // the next blur saves it, and the mark goes
    await title.focus()
    const saved = await saving(page, 'entry', () => title.blur())
    assert.equal(saved.title, 'Bloeddruk meten')
    await page.getByTestId('unsaved').waitFor({ state: 'detached' })
    assert.equal(refused, 1)
  })
})
