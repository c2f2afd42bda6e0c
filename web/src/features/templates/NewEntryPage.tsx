import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { createEntry, refreshAfterChange, templateKeys } from './api'
import { EditLayout } from './components/EditLayout'
import { newEntryTexts as t, newEntryTypes, soepTypeHelp, soepTypeName } from './texts'
import { useTemplateToasts } from './useTemplateToasts'

type NewEntryType = (typeof newEntryTypes)[number]

/** /template/entry/new/shared and /private: choose Plan, Objectief or Subjectief, then edit the new entry. */
export function NewEntryPage({ shared }: { shared: boolean }) {
  const [soepType, setSoepType] = useState<NewEntryType | null>(null)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const toasts = useTemplateToasts('entry')
  const create = useMutation({
    mutationFn: (type: NewEntryType) => createEntry(shared, { soepType: type }),
    onSuccess: (entry) => {
      queryClient.setQueryData(templateKeys.one('entry', entry.id), entry)
      refreshAfterChange(queryClient, 'entry')
      void navigate({ to: '/template/entry/$entryId', params: { entryId: entry.id }, replace: true })
    },
    onError: (error) => toasts.saveFailed(error),
  })

  return (
    <EditLayout heading={t.title(shared)} meta={<p>{t.intro(shared)}</p>}>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (soepType) create.mutate(soepType)
        }}
      >
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">{t.legend}</legend>
          <div className="mt-3 grid gap-3 sm:grid-cols-3">
            {newEntryTypes.map((type) => (
              <label
                key={type}
                className="flex cursor-pointer gap-3 rounded-lg p-4 ring-1 ring-slate-200 hover:bg-slate-50 has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-700"
              >
                <input
                  type="radio"
                  name="soepType"
                  value={type}
                  checked={soepType === type}
                  onChange={() => setSoepType(type)}
                  aria-labelledby={`soep-${type}-name`}
                  aria-describedby={`soep-${type}`}
                  className="mt-0.5 size-4 accent-brand-700 focus:outline-none"
                />
                <span>
                  <span id={`soep-${type}-name`} className="block text-sm font-semibold text-slate-900">
                    {soepTypeName(type)}
                  </span>
                  <span id={`soep-${type}`} className="mt-1 block text-sm text-slate-600">
                    {soepTypeHelp[type]}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-8 flex justify-end gap-3 border-t border-slate-100 pt-6">
          <Link to="/template" className={secondaryButtonClass}>
            {t.cancel}
          </Link>
          <button
            type="submit"
            disabled={!soepType || create.isPending}
            className={`${primaryButtonClass} disabled:cursor-not-allowed disabled:opacity-50`}
          >
            {create.isPending ? t.creating : t.create}
          </button>
        </div>
      </form>
    </EditLayout>
  )
}
