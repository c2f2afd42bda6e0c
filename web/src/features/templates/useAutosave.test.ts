import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { changedFields, useAutosave } from './useAutosave'

interface Fields {
  title: string
  codes: string[]
}

const initial: Fields = { title: 'Oud', codes: ['K86'] }

describe('changedFields', () => {
  it('keeps only what differs, comparing lists by content', () => {
    expect(changedFields(initial, { title: 'Oud', codes: ['K86'] })).toEqual({})
    expect(changedFields(initial, { title: 'Nieuw', codes: ['K86'] })).toEqual({ title: 'Nieuw' })
    expect(changedFields(initial, { codes: ['K86', 'T90'] })).toEqual({ codes: ['K86', 'T90'] })
  })
})

describe('useAutosave', () => {
  it('sends only changed fields, one call after the other, and not the same value twice', async () => {
    const calls: Partial<Fields>[] = []
    let release: () => void = () => {}
    const send = vi.fn(async (changes: Partial<Fields>) => {
      calls.push(changes)
      if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve))
    })
    const { result } = renderHook(() => useAutosave<Fields>(initial, send))

    let first!: Promise<unknown>
    let second!: Promise<unknown>
    act(() => {
      first = result.current.save({ title: 'Nieuw' })
      second = result.current.save({ codes: ['K86', 'T90'] })
      // the same title again while its save is under way: nothing to send
      void result.current.save({ title: 'Nieuw' })
    })
    expect(result.current.saving).toBe(true)
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    await act(async () => {
      release()
      await first
      await second
    })
    expect(calls).toEqual([{ title: 'Nieuw' }, { codes: ['K86', 'T90'] }])
    expect(result.current.saving).toBe(false)
    expect(result.current.saved.current).toEqual({ title: 'Nieuw', codes: ['K86', 'T90'] })
  })

  it('tries a refused field again on the next save, and flush sends what is still unsaved', async () => {
    const send = vi.fn((changes: Partial<Fields>) => {
      if (send.mock.calls.length === 1) return Promise.reject(new Error('kapot'))
      return Promise.resolve(void changes)
    })
    const { result } = renderHook(() => useAutosave<Fields>(initial, send))

    let outcome: unknown
    await act(async () => {
      outcome = await result.current.save({ title: 'Nieuw' })
    })
    expect(outcome).toMatchObject({ ok: false, changes: { title: 'Nieuw' } })
    expect(result.current.saved.current.title).toBe('Oud')

    await act(async () => {
      outcome = await result.current.flush({ title: 'Nieuw', codes: ['K86'] })
    })
    expect(outcome).toMatchObject({ ok: true, changed: true, changes: { title: 'Nieuw' } })
    expect(send).toHaveBeenLastCalledWith({ title: 'Nieuw' })

    await act(async () => {
      outcome = await result.current.flush({ title: 'Nieuw', codes: ['K86'] })
    })
    expect(outcome).toMatchObject({ ok: true, changed: false })
    expect(send).toHaveBeenCalledTimes(2)
  })
})
