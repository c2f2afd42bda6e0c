// The consult page's note kept on the server, in real Chromium on the run's api (no speech
// engine): the page says so before Start and shows the typed transcript; an edited note comes
// back after a reload; leaving, another template and Opnieuw ask before the edits are discarded;
// feedback sent from the page names the consult, and the hint bubble shows when a summary is in.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { pagesPerTest } from './browser.mjs'

const { openAs } = pagesPerTest()

function field(page, name, n = 1) {
  return page.getByRole('group', { name: `Episode ${n}` }).getByLabel(name, { exact: true })
}

/** Waits until the page says the note is kept (after the change that was just made). */
async function noteKept(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="note-status"]')?.textContent?.startsWith('Notitie bewaard om'), null, {
    timeout: 15_000,
  })
}

const consultOf = (page) => new URL(page.url()).searchParams.get('consult')

describe('the consult note', () => {
  it('says before Start that there is no speech engine, and offers the typed transcript instead of a microphone', async () => {
    const page = await openAs('huisarts@example.nl', '/audioconsult/beta/soap')
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    const message = page.getByTestId('no-engine')
    await message.waitFor()
    assert.equal(
      await message.textContent(),
      'Er is geen spraakherkenning ingesteld, dus opnemen kan hier niet. Typ of plak het gesprek in het tekstveld, druk op Start en daarna op Samenvatten.',
    )
    assert.equal(await page.getByRole('combobox', { name: 'Microfoon' }).count(), 0, 'no microphone picker that cannot record')
    const typed = page.getByLabel('Gesprek (getypt of geplakt)')
    await typed.fill('Ik heb al drie dagen keelpijn.')
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: 'Samenvatten' }).waitFor()
    assert.equal(await typed.inputValue(), 'Ik heb al drie dagen keelpijn.', 'what was typed before Start stays')
  })

  it('keeps an edited note on the server: a reload restores it, leaving and Opnieuw ask first', async () => {
    const page = await openAs('huisarts@example.nl', '/audioconsult/beta/soap')
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    assert.equal(consultOf(page), null)

    await field(page, 'Subjectief').fill('Sinds drie dagen keelpijn, geen koorts.')
    await field(page, 'Plan').fill('Paracetamol zo nodig; terugkomen bij koorts.')
    await noteKept(page)
    const consult = consultOf(page)
    assert.ok(consult, 'the address names the consult')

    // a reload brings the note back as it was left
    await page.reload()
    await page.getByTestId('note-restored').waitFor()
    assert.equal(await page.getByTestId('note-restored').textContent(), 'De notitie van dit consult is teruggezet zoals je haar achterliet.')
    assert.equal(await field(page, 'Subjectief').inputValue(), 'Sinds drie dagen keelpijn, geen koorts.')
    assert.equal(await field(page, 'Plan').inputValue(), 'Paracetamol zo nodig; terugkomen bij koorts.')
    assert.equal(consultOf(page), consult)

    // a later edit is kept too, and comes back after another reload
    await field(page, 'Evaluatie').fill('Virale keelontsteking.')
    await noteKept(page)
    await page.reload()
    await page.getByTestId('note-restored').waitFor()
    assert.equal(await field(page, 'Evaluatie').inputValue(), 'Virale keelontsteking.')

    // a menu link asks first; Annuleren stays with the note
    const dialog = page.getByRole('dialog', { name: 'Wijzigingen in de notitie weggooien?' })
    await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).getByRole('link', { name: 'Templates' }).click()
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Annuleren' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal(new URL(page.url()).pathname, '/audioconsult/beta/soap')
    assert.equal(await field(page, 'Evaluatie').inputValue(), 'Virale keelontsteking.')

    // another template asks too
    await page.getByRole('combobox', { name: 'Sjabloon' }).selectOption('report')
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Annuleren' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal(new URL(page.url()).pathname, '/audioconsult/beta/soap')

    // Opnieuw asks; Weggooien starts a new, empty consult
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('button', { name: 'Opnieuw' }).click()
    await dialog.waitFor()
    assert.match(await dialog.textContent(), /Met Opnieuw begin je een nieuw consult/)
    await dialog.getByRole('button', { name: 'Weggooien' }).click()
    await page.getByRole('button', { name: 'Start' }).waitFor()
    assert.equal(await field(page, 'Subjectief').inputValue(), '')
    assert.equal(consultOf(page), null)

    // without edits, leaving asks nothing
    await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).getByRole('link', { name: 'Templates' }).click()
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor()

    // another user does not get the note
    const other = await openAs('poh@example.nl', `/audioconsult/beta/soap?consult=${consult}`)
    await other.getByText('Dit consult is niet meer beschikbaar', { exact: false }).waitFor()
    assert.equal(await field(other, 'Subjectief').inputValue(), '')
  })

  it('leaving with edits asks, and Weggooien leaves', async () => {
    const page = await openAs('huisarts@example.nl', '/audioconsult/beta/soap')
    await field(page, 'Subjectief').fill('Hoofdpijn.')
    await page.getByRole('navigation', { name: 'Hoofdnavigatie' }).getByRole('link', { name: 'Overzicht' }).click()
    const dialog = page.getByRole('dialog', { name: 'Wijzigingen in de notitie weggooien?' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Weggooien' }).click()
    await page.waitForURL((url) => url.pathname === '/')
  })

  it("the browser's Back out of an edited note asks the same question as a link", async () => {
    // in the page from another one of the app: here the report template, then SOEP
    const page = await openAs('huisarts@example.nl', '/audioconsult/beta/report')
    await page.getByRole('combobox', { name: 'Sjabloon' }).selectOption('soap')
    await page.waitForURL((url) => url.pathname === '/audioconsult/beta/soap')
    await page.getByRole('heading', { level: 1, name: 'Gesproken consult' }).waitFor()
    await field(page, 'Subjectief').fill('Hoofdpijn sinds een week.')
    await noteKept(page)
    const dialog = page.getByRole('dialog', { name: 'Wijzigingen in de notitie weggooien?' })
    await page.goBack()
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Annuleren' }).click()
    await dialog.waitFor({ state: 'hidden' })
    assert.equal(new URL(page.url()).pathname, '/audioconsult/beta/soap')
    assert.equal(await field(page, 'Subjectief').inputValue(), 'Hoofdpijn sinds een week.')
    // asked again, Weggooien goes back
    await page.goBack()
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Weggooien' }).click()
    await page.waitForURL((url) => url.pathname === '/audioconsult/beta/report')
  })

  it('feedback sent from the page names its consult, and the hint bubble shows for 3.5 s once a summary is in', async () => {
    const page = await openAs('huisarts@example.nl', '/audioconsult/beta/soap')
    await page.getByRole('button', { name: 'Start' }).click()
    await page
      .getByLabel('Gesprek (getypt of geplakt)')
      .fill('Dokter, ik heb sinds drie dagen keelpijn.\nDe keel is rood.\nDit past bij een virale keelontsteking.\nU kunt paracetamol nemen.')
    await page.getByRole('button', { name: 'Samenvatten' }).click()
    const hint = page.getByTestId('feedback-hint')
    await hint.waitFor({ timeout: 30_000 })
    const shownAt = Date.now()
    assert.equal(await hint.textContent(), 'Klopt de samenvatting? Laat het ons weten met Feedback geven.')
    await hint.waitFor({ state: 'detached', timeout: 6_000 })
    const shownFor = Date.now() - shownAt
    assert.ok(shownFor > 2_500 && shownFor < 5_000, `shown for about 3.5 s, not ${shownFor} ms`)

    await noteKept(page)
    const consult = consultOf(page)
    assert.ok(consult)
    await page.getByRole('button', { name: 'Feedback geven' }).click()
    await page.getByLabel('Je feedback').fill('Het plan klopt.')
    const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/feedback')
    await page.getByRole('button', { name: 'Versturen' }).click()
    const body = (await sent).postDataJSON()
    assert.equal(body.consultId, consult)
    assert.equal(body.consultType, 'audioconsult')
  })
})
