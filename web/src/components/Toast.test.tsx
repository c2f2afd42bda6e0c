import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider, useToast, type ToastOptions } from './Toast'

function Trigger(props: ToastOptions) {
  const toast = useToast()
  return (
    <button type="button" onClick={() => toast(props)}>
      toon
    </button>
  )
}

describe('Toast', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }))
  afterEach(() => vi.useRealTimers())

  it("shows 'Fout' with the message and the reason, and hides after the time asked", async () => {
    render(
      <ToastProvider>
        <Trigger
          tone="error"
          message="Het lukt op dit moment niet om de template entry op te slaan"
          detail="Onbekende ICPC-code: Q99"
          durationMs={1000}
        />
      </ToastProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'toon' }))
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Fout')
    expect(alert).toHaveTextContent('Het lukt op dit moment niet om de template entry op te slaan')
    expect(alert).toHaveTextContent('Onbekende ICPC-code: Q99')
    act(() => {
      vi.advanceTimersByTime(1000)
    })
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it("titles a success 'Gelukt' and a warning 'Waarschuwing'; 'Sluiten' closes it", async () => {
    render(
      <ToastProvider>
        <Trigger tone="success" message="Gelukt! De template groep is op geslagen" />
      </ToastProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'toon' }))
    expect(screen.getByRole('status')).toHaveTextContent('GeluktGelukt! De template groep is op geslagen')
    await userEvent.click(screen.getByRole('button', { name: 'Sluiten' }))
    expect(screen.queryByRole('status')).not.toBeInTheDocument()

    render(
      <ToastProvider>
        <Trigger tone="warning" message="Let op" />
      </ToastProvider>,
    )
    await userEvent.click(screen.getAllByRole('button', { name: 'toon' })[1])
    expect(screen.getByRole('status')).toHaveTextContent('Waarschuwing')
  })

  it('says a sentence once when the reason repeats the message', async () => {
    render(
      <ToastProvider>
        <Trigger
          tone="error"
          message="Subscription kon niet worden geupdate. Ongeldige datum."
          detail="Subscription kon niet worden geupdate. Ongeldige datum."
        />
      </ToastProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'toon' }))
    const alert = screen.getByRole('alert')
    expect(alert.textContent?.split('Ongeldige datum.')).toHaveLength(2)
    expect(screen.getAllByText('Subscription kon niet worden geupdate. Ongeldige datum.')).toHaveLength(1)
  })
})
