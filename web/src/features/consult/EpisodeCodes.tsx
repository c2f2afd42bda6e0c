import { useId, useState } from 'react'
import { iconButtonClass } from '@/components/buttonStyles'
import type { EpisodeCode } from './result'
import { consultTexts } from './texts'

const t = consultTexts.codes

/**
 * An episode's suggested ICPC codes as chips under its evaluation. Clicking a chip shows the
 * transcript sentences it rests on, highlighted; the clinician accepts a code (it then goes with
 * the evaluation's copy and the record system's episode data) or removes it.
 */
export function EpisodeCodes({
  codes,
  onAnswer,
}: {
  codes: readonly EpisodeCode[]
  onAnswer: (code: string, answer: 'accept' | 'remove') => void
}) {
  const [open, setOpen] = useState<string | null>(null)
  const id = useId()
  if (codes.length === 0) return null
  const shown = codes.find((c) => c.code === open) ?? null
  return (
    <div role="group" aria-labelledby={`${id}-heading`} className="mt-2" data-testid="episode-codes">
      <p id={`${id}-heading`} className="text-xs font-medium text-slate-700">
        {t.heading}
      </p>
      <p className="sr-only">{t.hint}</p>
      <ul className="mt-1 flex flex-wrap gap-2">
        {codes.map((c) => (
          <li
            key={c.code}
            data-code={c.code}
            data-accepted={c.accepted}
            className={`flex items-center rounded-full border text-sm ${
              c.accepted ? 'border-emerald-600 bg-emerald-50 text-emerald-900' : 'border-dashed border-slate-400 bg-white text-slate-800'
            }`}
          >
            <button
              type="button"
              aria-pressed={open === c.code}
              aria-controls={`${id}-evidence`}
              title={t.hint}
              onClick={() => setOpen((o) => (o === c.code ? null : c.code))}
              className={`rounded-l-full py-1 pr-1 pl-3 text-left hover:underline focus-visible:outline-2 focus-visible:outline-brand-700 ${
                open === c.code ? 'font-semibold' : ''
              }`}
            >
              <span className="font-mono">{c.code}</span> {c.title}
            </button>
            {c.accepted ? (
              <span className="px-2 text-xs font-medium" aria-label={`${c.code} ${t.accepted.toLowerCase()}`}>
                ✓ {t.accepted}
              </span>
            ) : (
              <button type="button" className={`${iconButtonClass} text-xs`} aria-label={t.acceptCode(c.code)} onClick={() => onAnswer(c.code, 'accept')}>
                {t.accept}
              </button>
            )}
            <button
              type="button"
              className={`${iconButtonClass} mr-1 rounded-full`}
              aria-label={t.removeCode(c.code)}
              onClick={() => {
                if (open === c.code) setOpen(null)
                onAnswer(c.code, 'remove')
              }}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      <div id={`${id}-evidence`} aria-live="polite">
        {shown && (
          <figure className="mt-2 rounded-md bg-slate-50 p-3 ring-1 ring-slate-200" data-testid="code-evidence">
            <figcaption className="text-xs font-medium text-slate-700">{t.evidence(shown.code)}</figcaption>
            <ul className="mt-1 space-y-1 text-sm text-slate-800">
              {shown.evidence.map((sentence) => (
                <li key={sentence}>
                  <mark className="rounded bg-amber-100 px-0.5 text-slate-900">{sentence}</mark>
                </li>
              ))}
            </ul>
          </figure>
        )}
      </div>
    </div>
  )
}
