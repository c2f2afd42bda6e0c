import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/api/client'
import { LoadFailed } from './ListStates'

describe('LoadFailed', () => {
  it('says why the api refused a search', () => {
    const refusal = new ApiError(400, { error: 'query_too_long', message: 'Zoek op hoogstens 10 woorden (200 tekens).' })
    render(<LoadFailed onRetry={vi.fn()} error={refusal} />)
    expect(screen.getByRole('alert')).toHaveTextContent('Zoek op hoogstens 10 woorden (200 tekens).')
    expect(screen.getByRole('alert')).not.toHaveTextContent('De templates konden niet worden geladen.')
  })

  it('keeps the general message for any other failure', () => {
    render(<LoadFailed onRetry={vi.fn()} error={new ApiError(500, { message: 'Er ging iets mis aan onze kant.' })} />)
    expect(screen.getByRole('alert')).toHaveTextContent('De templates konden niet worden geladen.')
    expect(screen.getByRole('button', { name: 'Opnieuw proberen' })).toBeInTheDocument()
  })
})
