import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/api/client'
import { EConsultPage } from './EConsultPage'

const summariseEConsult = vi.hoisted(() => vi.fn())
vi.mock('./api', () => ({ summariseEConsult }))

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <EConsultPage />
    </QueryClientProvider>,
  )
}

const note = { episodes: [{ subjective: 'Verstopte neus sinds 4 dagen.', objective: '', diagnosis: 'Sinusitis', plan: 'Neusspoelen met zout water' }] }

describe('EConsultPage', () => {
  afterEach(() => summariseEConsult.mockReset())

  it('asks nothing without a question', async () => {
    renderPage()
    await userEvent.click(screen.getByRole('button', { name: 'Samenvatten' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Plak eerst de vraag van de patiënt.')
    expect(summariseEConsult).not.toHaveBeenCalled()
  })

  it('summarises the pasted question and drafts an editable reply from the note', async () => {
    summariseEConsult.mockResolvedValue({ note })
    renderPage()
    await userEvent.type(screen.getByLabelText('Vraag van de patiënt'), 'Mijn neus zit dicht. Groet, Anna')
    await userEvent.click(screen.getByRole('button', { name: 'Samenvatten' }))
    expect(summariseEConsult).toHaveBeenCalledWith('Mijn neus zit dicht. Groet, Anna', 1)

    const reply = await screen.findByRole('textbox', { name: 'Concept-antwoord aan de patiënt' })
    expect(reply).toHaveValue(
      'Beste Anna,\n\nDank u voor uw bericht.\n\nMijn beoordeling: Sinusitis.\nMijn advies: Neusspoelen met zout water.\n\nWorden de klachten erger of heeft u nog vragen? Neem dan contact op met de praktijk.\n\nMet vriendelijke groet,\nUw huisarts',
    )
    expect(screen.getByRole('region', { name: 'Samenvatting' })).toBeInTheDocument()
    expect(screen.getByLabelText('Subjectief')).toHaveValue('Verstopte neus sinds 4 dagen.')
    expect(screen.getByText('Controleer het antwoord en pas het aan voordat je het verstuurt.')).toBeInTheDocument()

    await userEvent.clear(reply)
    await userEvent.type(reply, 'Beste Anna, kom morgen langs.')
    expect(reply).toHaveValue('Beste Anna, kom morgen langs.')
  })

  it('says so when the note has no assessment or advice', async () => {
    summariseEConsult.mockResolvedValue({ note: { episodes: [{ subjective: 'Vraag over een recept.', objective: '', diagnosis: '', plan: '' }] } })
    renderPage()
    await userEvent.type(screen.getByLabelText('Vraag van de patiënt'), 'Kan ik een herhaalrecept krijgen?')
    await userEvent.click(screen.getByRole('button', { name: 'Samenvatten' }))
    expect(await screen.findByText(/De samenvatting bevat geen beoordeling of advies\./)).toBeInTheDocument()
  })

  it('shows the api’s refusal', async () => {
    summariseEConsult.mockRejectedValue(new ApiError(429, { error: 'too_many_requests', message: 'Te veel aanvragen; probeer het zo opnieuw.' }))
    renderPage()
    await userEvent.type(screen.getByLabelText('Vraag van de patiënt'), 'Vraag')
    await userEvent.click(screen.getByRole('button', { name: 'Samenvatten' }))
    await waitFor(() => expect(screen.getByTestId('summary-failed')).toHaveTextContent('Te veel aanvragen; probeer het zo opnieuw.'))
  })
})
