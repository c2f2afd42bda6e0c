import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderAt } from '@/test/renderRoute'
import { FeedbackWidget } from './FeedbackWidget'
import { setFeedbackConsult, showFeedbackHint } from './pageContext'

const sendFeedback = vi.hoisted(() => vi.fn())
vi.mock('./api', () => ({ sendFeedback }))

const HINT = 'Klopt de samenvatting? Laat het ons weten met Feedback geven.'

describe('FeedbackWidget', () => {
  afterEach(() => {
    act(() => setFeedbackConsult(null))
    sendFeedback.mockReset()
    vi.useRealTimers()
  })

  it('shows the hint bubble for 3.5 s when the page asks for it, not for a hint asked before it was there', async () => {
    act(() => showFeedbackHint())
    renderAt('/audioconsult/beta/soap', FeedbackWidget)
    await screen.findByRole('button', { name: 'Feedback geven' })
    expect(screen.queryByText(HINT)).toBeNull()

    vi.useFakeTimers()
    act(() => showFeedbackHint())
    expect(screen.getByTestId('feedback-hint')).toHaveTextContent(HINT)
    act(() => void vi.advanceTimersByTime(3_400))
    expect(screen.queryByTestId('feedback-hint')).not.toBeNull()
    act(() => void vi.advanceTimersByTime(100))
    expect(screen.queryByTestId('feedback-hint')).toBeNull()
  })

  it('sends the consult the page shows with the feedback', async () => {
    sendFeedback.mockResolvedValue({ id: 'f1' })
    renderAt('/audioconsult/beta/soap', FeedbackWidget)
    act(() => setFeedbackConsult('01kconsult'))
    await userEvent.click(await screen.findByRole('button', { name: 'Feedback geven' }))
    await userEvent.type(screen.getByLabelText('Je feedback'), 'De samenvatting mist het plan.')
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }))
    expect(sendFeedback).toHaveBeenCalledTimes(1)
    expect(sendFeedback.mock.calls[0][0]).toMatchObject({ consultId: '01kconsult', consultType: 'audioconsult', text: 'De samenvatting mist het plan.' })
  })

  it('sends no consult from a page without one', async () => {
    sendFeedback.mockResolvedValue({ id: 'f2' })
    renderAt('/template', FeedbackWidget)
    await userEvent.click(await screen.findByRole('button', { name: 'Feedback geven' }))
    await userEvent.type(screen.getByLabelText('Je feedback'), 'Fijn.')
    await userEvent.click(screen.getByRole('button', { name: 'Versturen' }))
    expect(sendFeedback.mock.calls[0][0]).toMatchObject({ consultId: null, type: 'template' })
  })
})
