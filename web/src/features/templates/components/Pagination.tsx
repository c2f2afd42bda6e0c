import { secondaryButtonClass } from '@/components/buttonStyles'
import { hasNext, hasPrevious, paginationLabel } from '../pagination'
import { templateTexts as t } from '../texts'
import { PAGE_SIZE } from '../constants'

interface PaginationProps {
  offset: number
  rows: number
  count: number
  onOffset: (offset: number) => void
}

/** 'Resultaat x tot y van z regels' with 'Vorige' and 'Volgende'. */
export function Pagination({ offset, rows, count, onOffset }: PaginationProps) {
  return (
    <nav aria-label={t.pagination} className="flex items-center justify-between gap-4 border-t border-slate-200 bg-white px-4 py-3 sm:px-6">
      <p className="text-sm text-slate-700" aria-live="polite">
        {paginationLabel(offset, rows, count)}
      </p>
      <div className="flex gap-3">
        <button
          type="button"
          onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}
          disabled={!hasPrevious(offset)}
          className={secondaryButtonClass}
        >
          {t.previous}
        </button>
        <button
          type="button"
          onClick={() => onOffset(offset + PAGE_SIZE)}
          disabled={!hasNext(offset, rows, count)}
          className={secondaryButtonClass}
        >
          {t.next}
        </button>
      </div>
    </nav>
  )
}
