import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { Icon, type IconName } from './Icon'
import { componentTexts as t } from './texts'

export type ToastTone = 'error' | 'success' | 'warning'

export interface ToastOptions {
  tone: ToastTone
  message: string
  /** A second line, e.g. the reason the api gave. */
  detail?: string
  /** How long it shows; 10 seconds unless said otherwise. */
  durationMs?: number
}

interface ShownToast extends ToastOptions {
  id: number
}

/** The toast's second line, when it says more than the first: an api that gives the same sentence as its reason shows it once. */
export function detailBeyond({ message, detail }: Pick<ToastOptions, 'message' | 'detail'>): string | undefined {
  return detail && detail.trim() !== message.trim() ? detail : undefined
}

/** Toasts and messages clear themselves after 10 seconds, unless a screen asks otherwise. */
export const TOAST_DURATION_MS = 10_000

type Show = (toast: ToastOptions) => void

const ToastContext = createContext<Show>(() => {})

/** Shows a toast; outside a `ToastProvider` (in a unit test, say) it does nothing. */
export function useToast(): Show {
  return useContext(ToastContext)
}

const tones: Record<ToastTone, { icon: IconName; colour: string }> = {
  error: { icon: 'xCircle', colour: 'text-red-600' },
  success: { icon: 'checkCircle', colour: 'text-emerald-600' },
  warning: { icon: 'warning', colour: 'text-amber-500' },
}

/** Holds the toasts of the pages below it and shows them in the top right corner. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([])
  const nextId = useRef(1)
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>())

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id))
    timers.current.delete(id)
    setToasts((shown) => shown.filter((toast) => toast.id !== id))
  }, [])

  const show = useCallback<Show>(
    (toast) => {
      const id = nextId.current++
      setToasts((shown) => [...shown, { ...toast, id }])
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), toast.durationMs ?? TOAST_DURATION_MS),
      )
    },
    [dismiss],
  )

  useEffect(() => {
    const pending = timers.current
    return () => pending.forEach((timer) => clearTimeout(timer))
  }, [])

  const value = useMemo(() => show, [show])

  return (
    <ToastContext.Provider value={value}>
      {children}
      <section
        aria-label={t.notifications}
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-16 z-50 flex flex-col items-center gap-3 px-4 py-4 sm:items-end sm:px-6"
      >
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onClose={() => dismiss(toast.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  )
}

function Toast({ toast, onClose }: { toast: ShownToast; onClose: () => void }) {
  const tone = tones[toast.tone]
  const detail = detailBeyond(toast)
  return (
    <div
      role={toast.tone === 'error' ? 'alert' : 'status'}
      className="pointer-events-auto flex w-full max-w-sm gap-3 rounded-lg bg-white p-4 shadow-lg ring-1 ring-black/5"
    >
      <Icon name={tone.icon} className={`size-6 shrink-0 ${tone.colour}`} />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-slate-900">{t.toastTitles[toast.tone]}</p>
        <p className="mt-1 text-sm text-slate-600">{toast.message}</p>
        {detail && <p className="mt-1 text-sm text-slate-500">{detail}</p>}
      </div>
      <button
        type="button"
        onClick={onClose}
        className="shrink-0 self-start rounded-md p-1 text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        <span className="sr-only">{t.close}</span>
        <Icon name="close" className="size-5" />
      </button>
    </div>
  )
}
