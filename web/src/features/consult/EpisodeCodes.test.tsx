import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { ConsultResult } from './ConsultResult'
import { emptyForm, formFromResult, type ConsultForm } from './result'

const note = {
  extractive: true,
  episodes: [
    {
      subjective: 'Sinds 4 dagen keelpijn.',
      diagnosis: 'Virale keelontsteking.',
      codes: [
        { code: 'R74', title: 'Verkoudheid', evidence: ['De keelpijn is een virale keelontsteking.'] },
        { code: 'R21', title: 'Keelpijn of keelklachten', evidence: ['Ik heb sinds vier dagen keelpijn.', 'De keelpijn is een virale keelontsteking.'] },
      ],
    },
    { subjective: 'Pijn onderrug.', diagnosis: 'Aspecifieke lage rugpijn.' },
  ],
}

function Page({ onForm }: { onForm: (form: ConsultForm) => void }) {
  const [form, setFormState] = useState(() => formFromResult(emptyForm('soap', 'normal'), note, 'normal'))
  return (
    <ConsultResult
      form={form}
      setForm={(update) =>
        setFormState((f) => {
          const next = update(f)
          onForm(next)
          return next
        })
      }
      idPrefix="t"
      fillLastSentences={null}
    />
  )
}

describe('the ICPC chips of an episode', () => {
  it('show the suggestions under Evaluatie, their evidence on a click, and take the answers', async () => {
    const user = userEvent.setup()
    let form: ConsultForm | null = null
    render(<Page onForm={(f) => (form = f)} />)
    expect(screen.getByTestId('drafted-without-model')).toHaveTextContent('Opgesteld zonder taalmodel')
    // only the first episode has codes
    const groups = screen.getAllByTestId('episode-codes')
    expect(groups).toHaveLength(1)
    expect(within(groups[0]).getByText('ICPC-suggesties')).toBeInTheDocument()
    expect(screen.queryByTestId('code-evidence')).toBeNull()

    await user.click(screen.getByRole('button', { name: /R21 Keelpijn of keelklachten/ }))
    const evidence = screen.getByTestId('code-evidence')
    expect(evidence).toHaveTextContent('Onderbouwing van R21 in het transcript')
    expect(within(evidence).getAllByText(/keelpijn/i).map((m) => m.tagName)).toEqual(['MARK', 'MARK'])
    expect(screen.getByRole('button', { name: /R21 Keelpijn/ })).toHaveAttribute('aria-pressed', 'true')

    await user.click(screen.getByRole('button', { name: 'R74 overnemen' }))
    expect(form!.episodes[0].codes.find((c) => c.code === 'R74')?.accepted).toBe(true)
    expect(screen.getByText(/✓ Overgenomen/)).toBeInTheDocument()

    // removing the open chip closes its evidence
    await user.click(screen.getByRole('button', { name: 'R21 verwijderen' }))
    expect(form!.episodes[0].codes.map((c) => c.code)).toEqual(['R74'])
    expect(screen.queryByTestId('code-evidence')).toBeNull()
  })

  it('copies the accepted codes with the evaluation', async () => {
    const user = userEvent.setup()
    const copied: string[] = []
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: (text: string) => Promise.resolve(void copied.push(text)) }, configurable: true })
    render(<Page onForm={() => {}} />)
    await user.click(screen.getByRole('button', { name: 'R74 overnemen' }))
    const copyButtons = screen.getAllByRole('button', { name: 'Kopieren' })
    // S, O, E, P of the first episode: E is the third
    await user.click(copyButtons[2])
    expect(copied).toEqual(['Virale keelontsteking.\nICPC: R74 Verkoudheid'])
  })
})
