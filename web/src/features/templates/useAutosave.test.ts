import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { changedFields, markUnsaved, useAutosave } from './useAutosave'

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

  it('marks a field whose save failed as unsaved until a save of it succeeds', async () => {
    let refuse = true
    const send = vi.fn(() => (refuse ? Promise.reject(new Error('kapot')) : Promise.resolve()))
    const { result } = renderHook(() => useAutosave<Fields>(initial, send))
    expect(result.current.unsaved.size).toBe(0)

    await act(async () => {
      await result.current.save({ title: 'Nieuw' })
    })
    expect([...result.current.unsaved]).toEqual(['title'])
    // another field's save that succeeds leaves the mark
    refuse = false
    await act(async () => {
      await result.current.save({ codes: ['K86', 'T90'] })
    })
    expect([...result.current.unsaved]).toEqual(['title'])
    await act(async () => {
      await result.current.save({ title: 'Nieuw' })
    })
    expect(result.current.unsaved.size).toBe(0)
  })

  it('clears the mark when the field is put back to what the api has, or the page settles it', async () => {
    const send = vi.fn(() => Promise.reject(new Error('kapot')))
    const { result } = renderHook(() => useAutosave<Fields>(initial, send))
    await act(async () => {
      await result.current.save({ title: 'Nieuw', codes: ['T90'] })
    })
    expect(new Set(result.current.unsaved)).toEqual(new Set(['title', 'codes']))
    // the title typed back as it was: nothing to send, and nothing unsaved
    await act(async () => {
      await result.current.save({ title: 'Oud' })
    })
    expect([...result.current.unsaved]).toEqual(['codes'])
    act(() => result.current.settle(['codes']))
    expect(result.current.unsaved.size).toBe(0)
  })
})

describe('markUnsaved', () => {
  it('adds failed fields, removes saved and settled ones, and keeps the same set when nothing changes', () => {
    const none = new Set<string>()
    const failed = markUnsaved(none, { ok: false, changes: { title: 'x' } })
    expect([...failed]).toEqual(['title'])
    expect(markUnsaved(failed, { ok: false, changes: { title: 'y' } })).toBe(failed)
    expect(markUnsaved(failed, { ok: true, changes: { text: 'z' } })).toBe(failed)
    expect(markUnsaved(failed, { ok: true, changes: { title: 'y' } }).size).toBe(0)
    expect(markUnsaved(failed, { ok: true, changes: {} }, ['title']).size).toBe(0)
  })
})
