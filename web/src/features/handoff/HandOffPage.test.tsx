import { QueryClient, QueryClientProvider, queryOptions } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { ApiError } from '@/api/client'
import { HandOffPage } from './HandOffPage'

const answers = vi.hoisted(() => new Map<string, () => Promise<{ redirectUrl: string; data: string }>>())

vi.mock('./api', () => ({
  handOffQueryOptions: (consultId: string) =>
    queryOptions({ queryKey: ['handoff', consultId], queryFn: () => answers.get(consultId)!(), retry: false }),
}))

/** Lets the query answer and React render, without moving the clock. */
async function settle() {
  for (let i = 0; i < 5; i++) await act(() => vi.advanceTimersByTimeAsync(0))
}

function renderPage(consultId: string) {
  const queryClient = new QueryClient()
  queryClient.setQueryData(['public', 'config'], {
    authority: 'http://localhost/oidc',
    clientId: 'spreekkamer-web',
    scope: 'openid',
    staffRole: 'staff',
    recordSystemName: 'Praktijkdossier',
    supportEmail: 'support@spreekkamer.nl',
    newEnvironmentUrl: null,
    newEnvironmentDate: null,
  })
  return render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <HandOffPage consultId={consultId} />
      </QueryClientProvider>
    </StrictMode>,
  )
}

describe('HandOffPage', () => {
  let submit: MockInstance<() => void>
  beforeEach(() => {
    vi.useFakeTimers()
    submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {})
  })
  afterEach(() => {
    submit.mockRestore()
    vi.useRealTimers()
    answers.clear()
  })

  it('posts the data in the single field bricks-data to the return address, once, 300 ms after it arrived', async () => {
    answers.set('a', () => Promise.resolve({ redirectUrl: 'https://his.example.nl/terug', data: '{"episodes":[]}' }))
    const { container } = renderPage('a')
    expect(screen.getByRole('heading', { name: 'Consult wordt geopend...' })).toBeInTheDocument()
    expect(screen.getByText('De koppeling met Praktijkdossier loopt voortaan via de nieuwe omgeving.')).toBeInTheDocument()

    await settle()
    const form = container.querySelector('form')!
    expect(form).not.toBeNull()
    expect(form.method).toBe('post')
    expect(form.action).toBe('https://his.example.nl/terug')
    const fields = [...form.elements] as HTMLInputElement[]
    expect(fields.map((f) => [f.name, f.value])).toEqual([['bricks-data', '{"episodes":[]}']])

    act(() => {
      vi.advanceTimersByTime(299)
    })
    expect(submit).not.toHaveBeenCalled()
    act(() => {
      vi.advanceTimersByTime(1)
    })
    expect(submit).toHaveBeenCalledTimes(1)
    act(() => {
      vi.advanceTimersByTime(5_000)
    })
    expect(submit).toHaveBeenCalledTimes(1)
  })

  it('says the consult has expired on a 404, naming the record system, and posts nothing', async () => {
    answers.set('b', () => Promise.reject(new ApiError(404, { code: 'not_found', message: 'Dit consult is verlopen.' })))
    const { container } = renderPage('b')
    await settle()
    screen.getByRole('heading', { name: 'Dit consult is verlopen. Start opnieuw vanuit Praktijkdossier' })
    expect(screen.getByText('De koppeling met Praktijkdossier loopt voortaan via de nieuwe omgeving.')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(5_000)
    })
    expect(container.querySelector('form')).toBeNull()
    expect(submit).not.toHaveBeenCalled()
  })

  it('posts nothing when the answer lacks the data', async () => {
    answers.set('c', () => Promise.resolve({ redirectUrl: 'https://his.example.nl/terug', data: '' }))
    renderPage('c')
    await settle()
    screen.getByRole('heading', { name: 'Dit consult is verlopen. Start opnieuw vanuit Praktijkdossier' })
    act(() => {
      vi.advanceTimersByTime(5_000)
    })
    expect(submit).not.toHaveBeenCalled()
  })

  it('offers to try again when the server cannot be reached', async () => {
    answers.set('d', () => Promise.reject(new TypeError('Failed to fetch')))
    renderPage('d')
    await settle()
    screen.getByRole('button', { name: 'Opnieuw proberen' })
    expect(screen.getByRole('heading', { name: /kon niet worden geladen/ })).toBeInTheDocument()
    expect(submit).not.toHaveBeenCalled()
  })
})
