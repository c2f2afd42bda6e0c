import { act, render, screen } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RenewedScreen } from './RenewedScreen'

describe('RenewedScreen', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('says the product is renewed, links the new environment, and goes there after 3 seconds', () => {
    const go = vi.fn()
    render(
      <StrictMode>
        <RenewedScreen url="https://nieuw.example.nl/" go={go} />
      </StrictMode>,
    )
    expect(screen.getByRole('heading', { name: 'Spreekkamer is vernieuwd' })).toBeInTheDocument()
    expect(screen.getByText('Je wordt zo doorgestuurd naar de nieuwe omgeving.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ga naar de nieuwe omgeving' })).toHaveAttribute('href', 'https://nieuw.example.nl/')

    act(() => {
      vi.advanceTimersByTime(2_999)
    })
    expect(go).not.toHaveBeenCalled()
    act(() => {
      vi.advanceTimersByTime(1)
    })
    expect(go).toHaveBeenCalledTimes(1)
    expect(go).toHaveBeenCalledWith('https://nieuw.example.nl/')
  })
})
