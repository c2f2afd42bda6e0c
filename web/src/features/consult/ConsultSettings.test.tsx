import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ConsultSettings } from './ConsultSettings'

function settings(onTemplate: (() => void) | null, showEpisodes: boolean) {
  return render(
    <ConsultSettings
      template="soap"
      onTemplate={onTemplate}
      episodeCount={1}
      onEpisodeCount={() => {}}
      precision="medium"
      onPrecision={() => {}}
      showEpisodes={showEpisodes}
    />,
  )
}

describe('ConsultSettings', () => {
  it('offers the template, the episodes and the precision', () => {
    settings(() => {}, true)
    expect(screen.getByLabelText('Sjabloon')).toBeInTheDocument()
    expect(screen.getByLabelText('Episodes')).toBeInTheDocument()
    expect(screen.getByLabelText('Precisie')).toHaveValue('medium')
  })

  it('without a template choice (the classic consult) offers no template, and the episodes only when asked', () => {
    settings(null, false)
    expect(screen.queryByLabelText('Sjabloon')).toBeNull()
    expect(screen.queryByLabelText('Episodes')).toBeNull()
    expect(screen.getByRole('option', { name: 'Hoog' })).toBeInTheDocument()
  })
})
