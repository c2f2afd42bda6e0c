// The public page /consult/{consultId} that hands a finished note to the record system: an api of
// its own with the hand-off on (its allow-list names a local stand-in for the record system, and
// the record system's name is not the default), a note handed off through the api, and the page
// opened in a signed-out browser.
import assert from 'node:assert/strict'
import { after, afterEach, before, describe, it } from 'node:test'
import { accessToken, baseUrl, emailField, freshPage, headingsSeen, launchBrowser } from './browser.mjs'
import { startApi, startSite } from './servers.mjs'

const RECORD_SYSTEM = 'Praktijkdossier'
const UNKNOWN_ID = '01jd8n3w3x6y0m2c5d3b4e9f7k'

let browser
let api
let recordSystem
let token
let context

before(async () => {
  recordSystem = await startSite('Praktijkdossier')
  api = await startApi('handoff', {
    APP_RECORD_SYSTEM_REDIRECT_ORIGINS: recordSystem.origin,
    APP_RECORD_SYSTEM_NAME: RECORD_SYSTEM,
  })
  token = await accessToken(api.url, 'huisarts@example.nl')
  browser = await launchBrowser()
})

after(async () => {
  await browser?.close()
  await api?.stop()
  await recordSystem?.close()
})

afterEach(async () => {
  await context?.close()
  context = undefined
})

function handOff(body) {
  return fetch(`${api.url}/api/integration/record-system/consult`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

async function signedOutPage(origin) {
  const fresh = await freshPage(browser, { baseURL: origin })
  context = fresh.context
  return fresh.page
}

describe('record-system hand-off page', () => {
  it('posts the note once, as the single form field bricks-data, to the return address', async () => {
    const created = await handOff({
      redirectUrl: `${recordSystem.origin}/terug`,
      result: { episodes: [{ subjective: 'S', objective: 'O', diagnosis: 'E', plan: 'P' }] },
    })
    assert.equal(created.status, 201)
    const { consultId, url } = await created.json()
    assert.equal(url, `/consult/${consultId}`)
    // what the page will post, as the api gives it (no token needed)
    const redirect = await fetch(`${api.url}/api/integration/record-system/consult/${consultId}/redirect`)
    assert.equal(redirect.status, 200)
    const { redirectUrl, data } = await redirect.json()
    assert.equal(redirectUrl, `${recordSystem.origin}/terug`)
    assert.deepEqual(JSON.parse(data), { episodes: [{ subjective: 'S', objective: 'O', evaluation: 'E', plan: 'P' }] })

    const page = await signedOutPage(api.url)
    const headings = await headingsSeen(page)
    await page.goto(url)
    // the browser leaves for the record system's answer to the form
    await page.waitForURL(`${recordSystem.origin}/terug`)
    await page.getByRole('heading', { level: 1, name: 'Ontvangen' }).waitFor()
    assert.ok(headings.has('Consult wordt geopend...'), `seen: ${[...headings].join(' | ')}`)
    assert.ok(!headings.has(`Dit consult is verlopen. Start opnieuw vanuit ${RECORD_SYSTEM}`))

    assert.equal(recordSystem.posts.length, 1, 'exactly one post')
    const [post] = recordSystem.posts
    assert.equal(post.path, '/terug')
    assert.match(post.contentType, /^application\/x-www-form-urlencoded/)
    assert.deepEqual(post.fields, [['bricks-data', data]])
  })

  it('says an unknown or expired consult has expired, naming the configured record system, and posts nothing', async () => {
    const posted = recordSystem.posts.length
    const page = await signedOutPage(api.url)
    await page.goto(`/consult/${UNKNOWN_ID}`)
    await page.getByRole('heading', { level: 1, name: `Dit consult is verlopen. Start opnieuw vanuit ${RECORD_SYSTEM}` }).waitFor()
    await page.getByText(`De koppeling met ${RECORD_SYSTEM} loopt voortaan via de nieuwe omgeving.`).waitFor()
    assert.equal(new URL(page.url()).pathname, `/consult/${UNKNOWN_ID}`, 'no sign-in asked')
    assert.equal(await page.locator('form').count(), 0)
    assert.equal(recordSystem.posts.length, posted)
  })

  it('names Bricks when the record system is not configured', async () => {
    const page = await signedOutPage(baseUrl)
    await page.goto(`/consult/${UNKNOWN_ID}`)
    await page.getByRole('heading', { level: 1, name: 'Dit consult is verlopen. Start opnieuw vanuit Bricks' }).waitFor()
  })

  it('refuses a return address outside the allow-list', async () => {
    const response = await handOff({
      redirectUrl: 'https://elders.example.nl/terug',
      result: { episodes: [{ subjective: 'S', objective: 'O', diagnosis: 'E', plan: 'P' }] },
    })
    assert.equal(response.status, 400)
    const body = await response.json()
    assert.equal(body.error, 'invalid_redirect')
    assert.equal(body.message, 'Dit terugkeeradres is niet toegestaan.')
  })

  it('keeps the first version of the consult a signed-in address, not a hand-off', async () => {
    const page = await signedOutPage(api.url)
    await page.goto('/consult/v1/audio')
    await emailField(page).waitFor()
    assert.equal(new URL(page.url()).pathname, '/oidc/auth')
  })
})
