import { act, renderHook } from '@testing-library/react'
import { StrictMode, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUTO_SUBMIT_DELAY_MS, handOffTarget, useAutoSubmitOnce, type HandOffTarget } from './autoSubmit'

const strict = ({ children }: { children: ReactNode }) => <StrictMode>{children}</StrictMode>

const both = { redirectUrl: 'https://his.example.nl/terug', data: '{"episodes":[]}' }

describe('handOffTarget', () => {
  it('is there only when both the address and the data are', () => {
    expect(handOffTarget(both)).toEqual(both)
    expect(handOffTarget({ redirectUrl: both.redirectUrl, data: '' })).toBeNull()
    expect(handOffTarget({ redirectUrl: '', data: both.data })).toBeNull()
    expect(handOffTarget({ redirectUrl: both.redirectUrl })).toBeNull()
    expect(handOffTarget({ data: both.data, redirectUrl: null })).toBeNull()
    expect(handOffTarget(undefined)).toBeNull()
  })
})

describe('useAutoSubmitOnce', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('submits once, 300 ms after the data arrived, in strict mode and across re-renders', () => {
    const submit = vi.fn()
    const { rerender } = renderHook(({ target }: { target: HandOffTarget | null }) => useAutoSubmitOnce(target, submit), {
      wrapper: strict,
      initialProps: { target: null as HandOffTarget | null },
    })
    act(() => {
      vi.advanceTimersByTime(1_000)
    })
    expect(submit).not.toHaveBeenCalled()

    // the data arrives
    rerender({ target: { ...both } })
    act(() => {
      vi.advanceTimersByTime(AUTO_SUBMIT_DELAY_MS - 1)
    })
    expect(submit).not.toHaveBeenCalled()
    // a re-render with an equal target does not start the wait again
    rerender({ target: { ...both } })
    act(() => {
      vi.advanceTimersByTime(1)
    })
    expect(submit).toHaveBeenCalledTimes(1)
    expect(submit).toHaveBeenCalledWith(both)

    rerender({ target: { ...both } })
    rerender({ target: { redirectUrl: both.redirectUrl, data: '{"episodes":[{}]}' } })
    act(() => {
      vi.advanceTimersByTime(10_000)
    })
    expect(submit).toHaveBeenCalledTimes(1)
  })

  it('submits nothing while the address or the data is missing', () => {
    const submit = vi.fn()
    for (const answer of [{ redirectUrl: both.redirectUrl, data: '' }, { redirectUrl: '', data: both.data }, undefined]) {
      const { unmount } = renderHook(() => useAutoSubmitOnce(handOffTarget(answer), submit), { wrapper: strict })
      act(() => {
        vi.advanceTimersByTime(10_000)
      })
      unmount()
    }
    expect(submit).not.toHaveBeenCalled()
  })

  it('submits nothing when the page is left before the 300 ms', () => {
    const submit = vi.fn()
    const { unmount } = renderHook(() => useAutoSubmitOnce(both, submit), { wrapper: strict })
    act(() => {
      vi.advanceTimersByTime(AUTO_SUBMIT_DELAY_MS - 1)
    })
    unmount()
    act(() => {
      vi.advanceTimersByTime(10_000)
    })
    expect(submit).not.toHaveBeenCalled()
  })
})
