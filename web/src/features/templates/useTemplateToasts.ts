import { useRef } from 'react'
import { useToast } from '@/components/Toast'
import { refusalReason, type TemplateKind } from './api'
import { templateMessages } from './texts'
import { TEMPLATE_TOAST_MS } from './constants'

/** The toasts of a template page, each shown for one second; a refusal's reason goes under the message. */
export function useTemplateToasts(kind: TemplateKind) {
  const toast = useToast()
  const messages = templateMessages[kind]
  const lastSaved = useRef(0)
  const lastFailure = useRef({ at: 0, detail: undefined as string | undefined })
  return {
    /** 'Gelukt! …'; not twice within a second (a field's own save right before 'Opslaan'), unless `again`. */
    saved(again = false) {
      if (!again && Date.now() - lastSaved.current < TEMPLATE_TOAST_MS) return
      lastSaved.current = Date.now()
      toast({ tone: 'success', message: messages.saved, durationMs: TEMPLATE_TOAST_MS })
    },
    /** Not twice within a second for the same reason (a field's failed save right before 'Opslaan' tries again). */
    saveFailed(error: unknown) {
      const detail = refusalReason(error)
      if (Date.now() - lastFailure.current.at < TEMPLATE_TOAST_MS && lastFailure.current.detail === detail) return
      lastFailure.current = { at: Date.now(), detail }
      toast({ tone: 'error', message: messages.saveFailed, detail, durationMs: TEMPLATE_TOAST_MS })
    },
    deleted() {
      toast({ tone: 'success', message: messages.deleted, durationMs: TEMPLATE_TOAST_MS })
    },
    deleteFailed(error: unknown) {
      toast({ tone: 'error', message: messages.deleteFailed, detail: refusalReason(error), durationMs: TEMPLATE_TOAST_MS })
    },
  }
}
