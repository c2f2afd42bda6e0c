import { useRouter } from '@tanstack/react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '@/api/client'
import type { ConsultAction, ConsultState } from './consultSession'
import {
  addressWithConsult,
  consultOfAddress,
  formOfNote,
  isBlankForm,
  NOTE_RETRY_MS,
  NOTE_SAVE_DELAY_MS,
  noteOfForm,
  sameNote,
} from './consultNote'
import { createConsult, readConsult, saveNote } from './noteApi'
import type { ConsultForm, Flavour, Template } from './result'

/** Where keeping the note stands: nothing to keep, waiting or sending, kept, or failed. */
export type NoteStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: Date }
  | { kind: 'failed' }

/** What a reload found: the note back, or the consult gone (its retention passed). */
export type Restore = 'none' | 'loading' | 'restored' | 'gone'

/**
 * Keeps the consult page's note with its consult on the server and brings it back on a reload.
 * The consult is named in the page's address (`?consult=`), so a reload (and only a reload, not a
 * new visit from the menu) finds it again; a change of the note is kept a moment later, in a
 * consult made for it when no session has opened one yet. Within the retention the note comes
 * back; after it the consult is gone and the page starts empty.
 */
export function useConsultNote(
  state: ConsultState,
  dispatch: (action: ConsultAction) => ConsultState,
  { template, flavour }: { template: Template; flavour: Flavour },
) {
  const router = useRouter()
  const [status, setStatus] = useState<NoteStatus>({ kind: 'idle' })
  // the consult in the address when the page opened: what a reload restores
  const [asked] = useState(() => consultOfAddress(router.history.location.search))
  const [restore, setRestore] = useState<Restore>(asked ? 'loading' : 'none')
  /** Counts the tries again after a failed save. */
  const [attempt, setAttempt] = useState(0)
  /** The note as the server has it (or is being sent), per consult. */
  const kept = useRef<{ consultId: string | null; form: ConsultForm | null }>({ consultId: null, form: null })
  /** A consult being made for the note: Start waits for it, so the session joins that consult. */
  const creating = useRef<Promise<string> | null>(null)
  /** Saves go one after the other, so an older note never lands after a newer one. */
  const chain = useRef<Promise<void>>(Promise.resolve())
  const latest = useRef({ template, flavour })
  useEffect(() => {
    latest.current = { template, flavour }
  })

  // a reload: read the consult in the address, and put its note back
  useEffect(() => {
    if (!asked) return
    let cancelled = false
    readConsult(asked).then(
      (consult) => {
        if (cancelled) return
        const form = formOfNote(consult.note, latest.current.template, latest.current.flavour)
        kept.current = { consultId: consult.id, form }
        dispatch({ type: 'restored', consultId: consult.id, form })
        if (form && consult.noteSavedAt) setStatus({ kind: 'saved', at: new Date(consult.noteSavedAt) })
        setRestore(form ? 'restored' : 'none')
      },
      (error: unknown) => {
        if (cancelled) return
        // gone after its retention, or not this user's: the page starts a new consult
        setRestore(error instanceof ApiError && error.status === 404 ? 'gone' : 'none')
      },
    )
    return () => {
      cancelled = true
    }
  }, [asked, dispatch])

  const loading = restore === 'loading'

  // the address names the consult the note is kept with (replaced, so Back still leaves the page)
  useEffect(() => {
    if (loading) return
    const { pathname, search, state: historyState } = router.history.location
    if (consultOfAddress(search) === state.consultId) return
    router.history.replace(addressWithConsult(pathname, search, state.consultId), historyState, { ignoreBlocker: true })
  }, [loading, router, state.consultId])

  /** The consult to keep the note with: the one there is, else one made now (once). */
  const ensureConsult = useCallback(async (): Promise<string> => {
    if (state.consultId) return state.consultId
    if (!creating.current) {
      creating.current = createConsult().then(
        (id) => {
          dispatch({ type: 'consultNamed', consultId: id })
          return id
        },
        (error: unknown) => {
          creating.current = null
          throw error
        },
      )
    }
    return creating.current
  }, [dispatch, state.consultId])

  // a change of the note is kept a moment later; a blank note only once something was kept
  const form = state.form
  useEffect(() => {
    if (loading) return
    const before = kept.current.consultId === state.consultId ? kept.current.form : null
    if (before ? sameNote(before, form) : isBlankForm(form)) return
    setStatus({ kind: 'saving' })
    let cancelled = false
    const timer = setTimeout(() => {
      chain.current = chain.current.then(async () => {
        try {
          const consultId = await ensureConsult()
          const savedAt = await saveNote(consultId, noteOfForm(form))
          kept.current = { consultId, form }
          if (!cancelled) setStatus({ kind: 'saved', at: new Date(savedAt) })
        } catch {
          if (!cancelled) setStatus({ kind: 'failed' })
        }
      })
    }, NOTE_SAVE_DELAY_MS)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [attempt, ensureConsult, form, loading, state.consultId])

  // a failed save is tried again a little later (the page says it failed meanwhile)
  useEffect(() => {
    if (status.kind !== 'failed') return
    const timer = setTimeout(() => setAttempt((n) => n + 1), NOTE_RETRY_MS)
    return () => clearTimeout(timer)
  }, [status])

  // Opnieuw: a new consult, nothing kept for it yet
  useEffect(() => {
    if (state.consultId === null && !creating.current) setStatus({ kind: 'idle' })
  }, [state.consultId])

  const forget = useCallback(() => {
    creating.current = null
    setRestore('none')
    setStatus({ kind: 'idle' })
  }, [])

  return {
    status,
    restore,
    /** The consult a session should join: the note's (waiting for it while it is being made). */
    consultForSession: useCallback(async () => state.consultId ?? (creating.current ? await creating.current.catch(() => null) : null), [state.consultId]),
    /** Opnieuw: what follows belongs to a new consult. */
    forget,
  }
}
