import { QueryClient } from '@tanstack/react-query'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider } from '@/components/Toast'
import { renderAt } from '@/test/renderRoute'
import { templateKeys, type TemplateEntry } from './api'
import { EntryEditPage } from './EntryEditPage'

const updateEntry = vi.hoisted(() => vi.fn())
vi.mock('./api', async (original) => ({ ...(await original<typeof import('./api')>()), updateEntry }))

const entry: TemplateEntry = {
  id: '00000000-0000-4000-8000-000000000001',
  title: 'Keelpijn',
  text: 'Paracetamol zo nodig.',
  description: '',
  codes: [],
  soepType: 'PLAN',
  visibilityType: 'PRIVATE',
  permissions: [],
  canEdit: true,
  createdAt: '2026-11-25T10:00:00Z',
  updatedAt: '2026-11-25T10:00:00Z',
}

function renderEditor() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  queryClient.setQueryData(templateKeys.one('entry', entry.id), entry)
  queryClient.setQueryData(['icpc', 'codes'], [])
  function Page() {
    return (
      <ToastProvider>
        <EntryEditPage id={entry.id} />
      </ToastProvider>
    )
  }
  return renderAt(`/template/entry/${entry.id}`, Page, queryClient)
}

const SAVE_FAILED = 'Het lukt op dit moment niet om de template entry op te slaan'

describe('EntryEditPage', () => {
  afterEach(() => {
    updateEntry.mockReset()
    vi.useRealTimers()
  })

  it('marks a field whose save failed after the 1 s toast has gone, until a save of it succeeds', async () => {
    updateEntry.mockRejectedValueOnce(new Error('kapot'))
    renderEditor()
    const title = await screen.findByLabelText('Titel')
    await userEvent.clear(title)
    await userEvent.type(title, 'Keelpijn beleid')
    await userEvent.click(screen.getByLabelText('Tekst'))

    // the spec's toast, for a second
    expect(await screen.findByText(SAVE_FAILED)).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText(SAVE_FAILED)).toBeNull(), { timeout: 3_000 })

    // the field stays marked, with the reason under it, and the status line says so
    expect(title).toHaveAttribute('aria-invalid', 'true')
    expect(title).toHaveAccessibleDescription('Niet opgeslagen')
    expect(screen.getByText(/^Niet alle wijzigingen zijn opgeslagen\./)).toBeInTheDocument()
    expect(screen.getByLabelText('Tekst')).not.toHaveAttribute('aria-invalid', 'true')

    // the next blur saves it, and the mark goes
    updateEntry.mockResolvedValueOnce({ ...entry, title: 'Keelpijn beleid' })
    await userEvent.click(title)
    await userEvent.click(screen.getByLabelText('Tekst'))
    await waitFor(() => expect(title).not.toHaveAttribute('aria-invalid', 'true'))
    expect(screen.queryByText('Niet opgeslagen')).toBeNull()
    expect(updateEntry).toHaveBeenLastCalledWith(entry.id, { title: 'Keelpijn beleid' })
  })
})
