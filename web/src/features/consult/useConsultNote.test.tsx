import { act, screen, waitFor } from '@testing-library/react'
import { useCallback, useRef, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/api/client'
import { renderAt } from '@/test/renderRoute'
import { consultReducer, initialConsultState, type ConsultAction, type ConsultState } from './consultSession'
import { NOTE_SAVE_DELAY_MS } from './consultNote'
import { emptyEpisode, emptyForm } from './result'
import { useConsultNote } from './useConsultNote'

const api = vi.hoisted(() => ({ readConsult: vi.fn(), createConsult: vi.fn(), saveNote: vi.fn() }))
vi.mock('./noteApi', () => api)

/** The page's state and the hook, with a handle to act on them from the test. */
let page: { state: ConsultState; dispatch: (action: ConsultAction) => ConsultState; note: ReturnType<typeof useConsultNote> }

function Harness() {
  const [state, setState] = useState(() => initialConsultState('soap', 'normal'))
  const current = useRef(state)
  const dispatch = useCallback((action: ConsultAction) => {
    current.current = consultReducer(current.current, action)
    setState(current.current)
    return current.current
  }, [])
  const note = useConsultNote(state, dispatch, { template: 'soap', flavour: 'normal' })
  page = { state, dispatch, note }
  return <p data-testid="status">{note.status.kind}</p>
}

const withPlan = (plan: string): ConsultAction => ({
  type: 'editForm',
  change: (form) => ({ ...form, episodes: [{ ...form.episodes[0], plan }] }),
})

const stored = { ...emptyForm('soap', 'normal'), episodes: [{ ...emptyEpisode, subjective: 'Keelpijn', plan: 'Rust', codes: [] }] }

describe('useConsultNote', () => {
  afterEach(() => {
    for (const fn of Object.values(api)) fn.mockReset()
  })

  it('keeps a written note a moment later, in a consult made for it, and names it in the address', async () => {
    api.createConsult.mockResolvedValue('c-new')
    api.saveNote.mockResolvedValue('2026-11-25T10:00:00Z')
    const { router } = renderAt('/audioconsult/beta/soap', Harness)
    await screen.findByTestId('status')
    // an empty note is not kept
    await new Promise((resolve) => setTimeout(resolve, NOTE_SAVE_DELAY_MS + 100))
    expect(api.createConsult).not.toHaveBeenCalled()

    act(() => void page.dispatch(withPlan('Paracetamol')))
    act(() => void page.dispatch(withPlan('Paracetamol zo nodig')))
    expect(screen.getByTestId('status')).toHaveTextContent('saving')
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('saved'))
    expect(api.createConsult).toHaveBeenCalledTimes(1)
    // one save, of the newest note, whole
    expect(api.saveNote).toHaveBeenCalledTimes(1)
    expect(api.saveNote.mock.calls[0][0]).toBe('c-new')
    expect(api.saveNote.mock.calls[0][1]).toMatchObject({ template: 'soap', episodes: [{ plan: 'Paracetamol zo nodig', codes: [] }] })
    expect(page.state.consultId).toBe('c-new')
    await waitFor(() => expect(router.history.location.search).toBe('?consult=c-new'))

    // Opnieuw: a new consult, and the address forgets the old one
    act(() => {
      page.note.forget()
      page.dispatch({ type: 'reset', template: 'soap', flavour: 'normal' })
    })
    await waitFor(() => expect(router.history.location.search).toBe(''))
    expect(screen.getByTestId('status')).toHaveTextContent('idle')
  })

  it('puts the note of the consult in the address back on a reload', async () => {
    api.readConsult.mockResolvedValue({ id: 'c1', note: stored, noteSavedAt: '2026-11-25T10:00:00Z' })
    renderAt('/audioconsult/beta/soap?consult=c1', Harness)
    await waitFor(() => expect(page.note.restore).toBe('restored'))
    expect(api.readConsult).toHaveBeenCalledWith('c1')
    expect(page.state).toMatchObject({ consultId: 'c1', edited: true })
    expect(page.state.form.episodes[0]).toMatchObject({ subjective: 'Keelpijn', plan: 'Rust' })
    expect(screen.getByTestId('status')).toHaveTextContent('saved')
    // what came back is not sent again
    await new Promise((resolve) => setTimeout(resolve, NOTE_SAVE_DELAY_MS + 100))
    expect(api.saveNote).not.toHaveBeenCalled()
  })

  it('starts empty when the consult is gone after its retention', async () => {
    api.readConsult.mockRejectedValue(new ApiError(404, { error: 'not_found', message: 'Niet gevonden.' }))
    const { router } = renderAt('/audioconsult/beta/soap?consult=c-old', Harness)
    await waitFor(() => expect(page.note.restore).toBe('gone'))
    expect(page.state.consultId).toBeNull()
    await waitFor(() => expect(router.history.location.search).toBe(''))
  })

  it('says a failed save failed', async () => {
    api.createConsult.mockResolvedValue('c2')
    api.saveNote.mockRejectedValue(new ApiError(500, {}))
    renderAt('/audioconsult/beta/soap', Harness)
    await screen.findByTestId('status')
    act(() => void page.dispatch(withPlan('Rust')))
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('failed'))
  })
})
