import { templateTexts as t } from '../texts'

export function VisibilityBadge({ visibility }: { visibility: string }) {
  const isPublic = visibility.toUpperCase() === 'PUBLIC'
  return (
    <span
      className={`inline-flex items-center rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${
        isPublic ? 'bg-sky-50 text-sky-800 ring-sky-200' : 'bg-slate-100 text-slate-700 ring-slate-200'
      }`}
    >
      {isPublic ? t.public : t.private}
    </span>
  )
}
