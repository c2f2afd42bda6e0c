import { useQueryErrorResetBoundary } from '@tanstack/react-query'
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { errorTexts } from './texts'
import { primaryButtonClass } from '@/components/buttonStyles'

/** The router's fallback when a route fails to load or render. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const router = useRouter()
  const queries = useQueryErrorResetBoundary()
  const retry = () => {
    queries.reset()
    reset()
    void router.invalidate()
  }
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <div className="rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-semibold text-red-700">{errorTexts.unexpectedTitle}</h1>
        <p className="mt-3 text-slate-600">{errorTexts.unexpectedHelp}</p>
        {error instanceof Error && error.message && (
          <details className="mt-4 text-sm text-slate-500">
            <summary className="cursor-pointer">{errorTexts.details}</summary>
            <pre className="mt-2 overflow-x-auto rounded-md bg-slate-100 p-3 whitespace-pre-wrap">{error.message}</pre>
          </details>
        )}
        <button
          type="button"
          onClick={retry}
          className={`mt-6 ${primaryButtonClass}`}
        >
          {errorTexts.retry}
        </button>
      </div>
    </main>
  )
}
