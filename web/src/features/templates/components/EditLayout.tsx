import type { ReactNode } from 'react'
import { Description } from '@headlessui/react'
import { Link } from '@tanstack/react-router'
import { Icon } from '@/components/Icon'
import { editTexts as t } from '../texts'

/** The frame of an entry's or a group's page: a way back, the heading and what the page is about. */
export function EditLayout({
  heading,
  meta,
  status,
  children,
}: {
  heading: string
  meta: ReactNode
  status?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="max-w-3xl">
      <Link
        to="/template"
        className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        <Icon name="arrowLeft" className="size-4" />
        {t.back}
      </Link>
      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{heading}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">{meta}</div>
        </div>
        {status}
      </div>
      <div className="mt-8 rounded-xl bg-white p-6 shadow-xs ring-1 ring-slate-200 sm:p-8">{children}</div>
    </div>
  )
}

/**
 * Whether the page is saving, with the promise that changes are kept; while a field's save has
 * failed, that it has not (in red, until a save of it succeeds).
 */
export function SaveStatus({ saving, unsaved = false }: { saving: boolean; unsaved?: boolean }) {
  return (
    <p className={`text-sm ${unsaved && !saving ? 'font-medium text-red-700' : 'text-slate-500'}`} role="status">
      {saving ? t.saving : unsaved ? t.someUnsaved : t.autosave}
    </p>
  )
}

/** Under a field (inside its headless `Field`) whose save failed: 'Niet opgeslagen', until one succeeds. */
export function UnsavedNote({ shown }: { shown: boolean }) {
  if (!shown) return null
  return (
    <Description className="mt-1 flex items-center gap-1 text-sm font-medium text-red-700" data-testid="unsaved">
      <Icon name="warning" className="size-4 shrink-0" />
      {t.notSaved}
    </Description>
  )
}

/** A field whose save failed (`invalid` on the headless input) gets a red ring. */
export const unsavedRingClass = 'data-invalid:ring-2 data-invalid:ring-red-500'

export const labelClass = 'block text-sm font-medium text-slate-900'
