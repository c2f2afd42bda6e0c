import { Icon } from '@/components/Icon'
import { editTexts, templateTexts } from '../texts'

interface CodeChipsProps {
  codes: readonly string[]
  /** The patient title of each code, when the list is known. */
  titles?: ReadonlyMap<string, string>
  /** Shows a remove button on each chip. */
  onRemove?: (code: string) => void
  disabled?: boolean
}

/** ICPC codes as chips. */
export function CodeChips({ codes, titles, onRemove, disabled = false }: CodeChipsProps) {
  if (codes.length === 0) return <span className="text-sm text-slate-500">{templateTexts.noCodes}</span>
  return (
    <ul className="flex flex-wrap gap-1.5">
      {codes.map((code) => {
        const title = titles?.get(code)
        return (
          <li
            key={code}
            title={title}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-brand-800 ring-1 ring-brand-100 ring-inset"
          >
            <span className="font-mono">{code}</span>
            {title && onRemove && <span className="font-normal text-slate-600">{title}</span>}
            {onRemove ? (
              <button
                type="button"
                onClick={() => onRemove(code)}
                disabled={disabled}
                className="rounded-full p-0.5 text-brand-700 hover:bg-brand-100 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:opacity-50"
              >
                <span className="sr-only">{editTexts.removeCode(code)}</span>
                <Icon name="close" className="size-3.5" />
              </button>
            ) : (
              <span className="pr-1.5" />
            )}
          </li>
        )
      })}
    </ul>
  )
}
