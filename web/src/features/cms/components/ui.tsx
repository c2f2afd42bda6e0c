import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle, Field, Label, Switch } from '@headlessui/react'
import { Icon } from '@/components/Icon'
import { cmsTexts as t } from '../texts'

export const inputClass =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-700 focus:outline-none aria-invalid:ring-red-500'

export const selectClass =
  'block w-full rounded-md border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700 focus:outline-none'

/** A tab's heading and its introduction. */
export function PanelHeading({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <div>
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {children && <p className="mt-1 text-sm text-slate-600">{children}</p>}
    </div>
  )
}

/** A switch (headless UI's `Switch`) and its knob. */
export const switchClass =
  'group relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-200 p-0.5 transition-colors duration-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-50 data-checked:bg-brand-600'
export const switchKnobClass =
  'size-5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform duration-200 group-data-checked:translate-x-5'

export function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <Field className="flex items-center gap-3">
      <Switch checked={checked} onChange={onChange} className={switchClass}>
        <span aria-hidden="true" className={switchKnobClass} />
      </Switch>
      <Label className="cursor-pointer text-sm font-medium text-slate-700">{label}</Label>
    </Field>
  )
}

export function Check({ label }: { label: string }) {
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex text-emerald-600">
      <Icon name="checkCircle" className="size-6" />
    </span>
  )
}

export function Cross({ label }: { label: string }) {
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex text-red-600">
      <Icon name="xCircle" className="size-6" />
    </span>
  )
}

export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${active ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${active ? 'bg-emerald-500' : 'bg-slate-400'}`} />
      {active ? t.active : t.inactive}
    </span>
  )
}

/** A message that clears itself after `ms` (the modals' 8 seconds). */
export function useTimedMessage(ms: number) {
  const [message, setMessage] = useState<string | null>(null)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  const show = useCallback(
    (text: string) => {
      setMessage(text)
      window.clearTimeout(timer.current)
      timer.current = window.setTimeout(() => setMessage(null), ms)
    },
    [ms],
  )
  const clear = useCallback(() => {
    window.clearTimeout(timer.current)
    setMessage(null)
  }, [])
  return { message, show, clear }
}

/** A CMS modal: a title, its content, and the buttons the content brings. */
export function Modal({
  open,
  title,
  onClose,
  wide = false,
  busy = false,
  children,
}: {
  open: boolean
  title: string
  onClose: () => void
  wide?: boolean
  busy?: boolean
  children: ReactNode
}) {
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} className="fixed inset-0 z-40">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/40 transition-opacity data-closed:opacity-0" />
      <div className="fixed inset-0 z-40 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center p-4 sm:items-center">
          <DialogPanel
            transition
            className={`w-full ${wide ? 'max-w-3xl' : 'max-w-lg'} min-w-0 rounded-xl bg-white p-6 shadow-xl transition data-closed:translate-y-4 data-closed:opacity-0`}
          >
            <DialogTitle className="min-w-0 text-lg font-semibold break-words text-slate-900">{title}</DialogTitle>
            {children}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  )
}

/** The modal's error line (cleared after 8 s by its owner). */
export function ModalError({ message }: { message: string | null }) {
  return (
    <div className="min-h-6" aria-live="assertive">
      {message && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {message}
        </p>
      )}
    </div>
  )
}
