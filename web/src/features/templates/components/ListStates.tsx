import type { ReactNode } from 'react'
import { refusalReason } from '@/api/client'
import { templateTexts as t } from '../texts'

/** A table row spanning every column, for loading, failing and empty lists. */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-6 py-10 text-center text-sm text-slate-500">
        {children}
      </td>
    </tr>
  )
}

/** A list that could not be loaded; a refused search (400) says why in the api's words. */
export function LoadFailed({ onRetry, error }: { onRetry: () => void; error?: unknown }) {
  return (
    <span role="alert">
      {refusalReason(error) ?? t.loadFailed}{' '}
      <button type="button" onClick={onRetry} className="font-semibold text-brand-700 underline hover:text-brand-900">
        {t.retry}
      </button>
    </span>
  )
}

export const thClass = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase first:pl-6 last:pr-6'
export const tdClass = 'px-4 py-4 align-top text-sm text-slate-700 first:pl-6 last:pr-6'
