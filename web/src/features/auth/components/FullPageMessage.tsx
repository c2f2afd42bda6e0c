import type { ReactNode } from 'react'

/** A whole-page notice while the session starts, ends or fails. */
export function FullPageMessage({ title, busy = false, children }: { title: string; busy?: boolean; children?: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-6 py-24">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200">
        <div className="mx-auto mb-6 flex size-12 items-center justify-center rounded-xl bg-brand-700 text-lg font-semibold text-white">
          S
        </div>
        <div role={busy ? 'status' : undefined} aria-live={busy ? 'polite' : undefined} className="flex items-center justify-center gap-3">
          {busy && (
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />
          )}
          <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
        </div>
        {children && <div className="mt-4 text-sm text-slate-600">{children}</div>}
      </div>
    </main>
  )
}
