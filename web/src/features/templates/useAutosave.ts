import { useCallback, useLayoutEffect, useRef, useState } from 'react'

export type SaveResult<T> = { ok: true; changed: boolean; changes: Partial<T> } | { ok: false; error: unknown; changes: Partial<T> }

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)

/** The fields of `current` that differ from `base`. */
export function changedFields<T extends object>(base: T, current: Partial<T>): Partial<T> {
  const changes: Partial<T> = {}
  for (const key of Object.keys(current) as (keyof T)[]) {
    if (!same(current[key], base[key])) changes[key] = current[key]
  }
  return changes
}

/**
 * Saves changed fields one call at a time, in the order they were made, so a later change is never
 * overtaken by an earlier one. `saved` is what the api has; a field is not sent again while a save
 * of the same value is under way.
 */
export function useAutosave<T extends object>(initial: T, send: (changes: Partial<T>) => Promise<void>) {
  const saved = useRef(initial)
  const sent = useRef(initial)
  const chain = useRef<Promise<unknown>>(Promise.resolve())
  const sendRef = useRef(send)
  useLayoutEffect(() => {
    sendRef.current = send
  })
  const [busy, setBusy] = useState(0)

  /** Saves the fields of `current` that differ from what the api has or is being sent. */
  const save = useCallback((current: Partial<T>): Promise<SaveResult<T>> => {
    const changes = changedFields(sent.current, current)
    if (Object.keys(changes).length === 0) {
      return chain.current.then(() => ({ ok: true as const, changed: false, changes }))
    }
    sent.current = { ...sent.current, ...changes }
    setBusy((n) => n + 1)
    const run = chain.current.then(async (): Promise<SaveResult<T>> => {
      try {
        await sendRef.current(changes)
        saved.current = { ...saved.current, ...changes }
        return { ok: true, changed: true, changes }
      } catch (error) {
        // what failed counts as unsent, so the next blur or 'Opslaan' tries again
        const reverted: Partial<T> = {}
        for (const key of Object.keys(changes) as (keyof T)[]) reverted[key] = saved.current[key]
        sent.current = { ...sent.current, ...reverted }
        return { ok: false, error, changes }
      } finally {
        setBusy((n) => n - 1)
      }
    })
    chain.current = run
    return run
  }, [])

  /** Waits for the saves under way, then saves whatever still differs from what the api has. */
  const flush = useCallback(
    async (current: T): Promise<SaveResult<T>> => {
      await chain.current
      sent.current = saved.current
      return save(current)
    },
    [save],
  )

  return { save, flush, saving: busy > 0, saved }
}
