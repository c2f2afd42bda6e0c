import { Link } from '@tanstack/react-router'
import { errorTexts } from './texts'
import { primaryButtonClass } from '@/components/buttonStyles'

export function NotFoundPage() {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-center px-6 py-24 text-center">
      <p className="text-sm font-semibold text-brand-700">{errorTexts.notFoundCode}</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">{errorTexts.notFoundTitle}</h1>
      <p className="mt-4 text-slate-600">{errorTexts.notFoundHelp}</p>
      <Link
        to="/"
        className={`mt-8 ${primaryButtonClass}`}
      >
        {errorTexts.toOverview}
      </Link>
    </main>
  )
}
