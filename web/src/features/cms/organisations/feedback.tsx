/**
 * How a change says how it went. On the page a toast (10 s). Inside a modal a toast would sit on
 * the page behind it, which the dialog makes inert and hides from assistive technology while it is
 * open, so the modal shows the same message itself, in a notice at its bottom that also clears
 * after 10 seconds.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import { Icon, type IconName } from '@/components/Icon'
import { detailBeyond, TOAST_DURATION_MS, useToast, type ToastOptions, type ToastTone } from '@/components/Toast'
import { componentTexts } from '@/components/texts'

type Show = (notice: ToastOptions) => void

const NoticeContext = createContext<Show | null>(null)

/** Shows how a change went: in the modal's notice inside a modal that has one, else as a toast. */
export function useFeedback(): Show {
  const inModal = useContext(NoticeContext)
  const toast = useToast()
  return inModal ?? toast
}

/** A modal's notice: the last message, cleared after 10 seconds (or `durationMs`). */
export function useNotice() {
  const [notice, setNotice] = useState<ToastOptions | null>(null)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  const show = useCallback<Show>((next) => {
    setNotice(next)
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => setNotice(null), next.durationMs ?? TOAST_DURATION_MS)
  }, [])
  const clear = useCallback(() => {
    window.clearTimeout(timer.current)
    setNotice(null)
  }, [])
  return { notice, show, clear }
}

/** Gives the modal's content its notice. */
export function NoticeProvider({ show, children }: { show: Show; children: ReactNode }) {
  return <NoticeContext.Provider value={show}>{children}</NoticeContext.Provider>
}

const tones: Record<ToastTone, { icon: IconName; colour: string }> = {
  error: { icon: 'xCircle', colour: 'text-red-600' },
  success: { icon: 'checkCircle', colour: 'text-emerald-600' },
  warning: { icon: 'warning', colour: 'text-amber-500' },
}

/** The notice, kept in view at the bottom of the modal while it scrolls; it looks like a toast. */
export function Notice({ notice, onClose }: { notice: ToastOptions | null; onClose: () => void }) {
  const detail = notice && detailBeyond(notice)
  return (
    <div aria-live="polite" className="pointer-events-none sticky bottom-4 z-10 mt-4 flex justify-end">
      {notice && (
        <div
          role={notice.tone === 'error' ? 'alert' : 'status'}
          className="pointer-events-auto flex w-full max-w-sm gap-3 rounded-lg bg-white p-4 shadow-lg ring-1 ring-black/10"
        >
          <Icon name={tones[notice.tone].icon} className={`size-6 shrink-0 ${tones[notice.tone].colour}`} />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-semibold text-slate-900">{componentTexts.toastTitles[notice.tone]}</p>
            <p className="mt-1 text-sm break-words text-slate-600">{notice.message}</p>
            {detail && <p className="mt-1 text-sm break-words text-slate-500">{detail}</p>}
          </div>
          <button
            type="button"
            onClick={onClose}
            className="shrink-0 self-start rounded-md p-1 text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <span className="sr-only">{componentTexts.close}</span>
            <Icon name="close" className="size-5" />
          </button>
        </div>
      )}
    </div>
  )
}
