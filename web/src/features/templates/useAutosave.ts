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
 * The fields whose text on screen the api does not have because their save failed: `failed` marks
 * them, a save that succeeds for a field (or a field put back to what the api has) clears it.
 */
export function markUnsaved<K>(unsaved: ReadonlySet<K>, result: { ok: boolean; changes: object }, settled: readonly K[] = []): ReadonlySet<K> {
  const keys = Object.keys(result.changes) as K[]
  const next = new Set(unsaved)
  for (const key of keys) {
    if (result.ok) next.delete(key)
    else next.add(key)
  }
  for (const key of settled) next.delete(key)
  return next.size === unsaved.size && [...next].every((key) => unsaved.has(key)) ? unsaved : next
}

/**
 * Saves changed fields one call at a time, in the order they were made, so a later change is never
 * overtaken by an earlier one. `saved` is what the api has; a field is not sent again while a save
 * of the same value is under way. `unsaved` names the fields whose last save failed, until a save
 * of theirs succeeds (the page marks them, so a failure shown for a second cannot be missed).
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
  const [unsaved, setUnsaved] = useState<ReadonlySet<keyof T>>(() => new Set())

  /** The fields of `current` that equal what the api has are saved, whatever failed before. */
  const settleEqual = useCallback((current: Partial<T>) => {
    const equal = (Object.keys(current) as (keyof T)[]).filter((key) => same(current[key], saved.current[key]))
    if (equal.length > 0) setUnsaved((marks) => markUnsaved(marks, { ok: true, changes: {} }, equal))
  }, [])

  /** Saves the fields of `current` that differ from what the api has or is being sent. */
  const save = useCallback((current: Partial<T>): Promise<SaveResult<T>> => {
    const changes = changedFields(sent.current, current)
    if (Object.keys(changes).length === 0) {
      return chain.current.then(() => {
        settleEqual(current)
        return { ok: true as const, changed: false, changes }
      })
    }
    sent.current = { ...sent.current, ...changes }
    setBusy((n) => n + 1)
    const run = chain.current.then(async (): Promise<SaveResult<T>> => {
      try {
        await sendRef.current(changes)
        saved.current = { ...saved.current, ...changes }
        setUnsaved((marks) => markUnsaved(marks, { ok: true, changes }))
        return { ok: true, changed: true, changes }
      } catch (error) {
        // what failed counts as unsent, so the next blur or 'Opslaan' tries again
        const reverted: Partial<T> = {}
        for (const key of Object.keys(changes) as (keyof T)[]) reverted[key] = saved.current[key]
        sent.current = { ...sent.current, ...reverted }
        setUnsaved((marks) => markUnsaved(marks, { ok: false, changes }))
        return { ok: false, error, changes }
      } finally {
        setBusy((n) => n - 1)
      }
    })
    chain.current = run
    return run
  }, [settleEqual])

  /** Waits for the saves under way, then saves whatever still differs from what the api has. */
  const flush = useCallback(
    async (current: T): Promise<SaveResult<T>> => {
      await chain.current
      sent.current = saved.current
      return save(current)
    },
    [save],
  )

  /** The page put `keys` back to what the api has (a refused code list): they are no longer unsaved. */
  const settle = useCallback((keys: readonly (keyof T)[]) => setUnsaved((marks) => markUnsaved(marks, { ok: true, changes: {} }, keys)), [])

  return { save, flush, saving: busy > 0, saved, unsaved, settle }
}
