import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react'
import { useMemo, useState } from 'react'
import { Icon } from '@/components/Icon'
import { icpcId, searchIcpc, useIcpcCodes, type IcpcCode } from '@/features/icpc'
import { editTexts as t } from '../texts'

interface CodePickerProps {
  /** The codes the entry has: offered, but choosing one again changes nothing. */
  selected: readonly string[]
  onAdd: (code: string) => void
  disabled?: boolean
}

export const inputClass =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500'

export const optionsClass =
  'z-30 max-h-80 w-(--input-width) overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-black/5 [--anchor-gap:4px] empty:invisible focus:outline-none'

/** Adds an ICPC code: up to ten matches of the list for what is typed. */
export function CodePicker({ selected, onAdd, disabled = false }: CodePickerProps) {
  const icpc = useIcpcCodes()
  const [query, setQuery] = useState('')
  const matches = useMemo(() => (icpc.data ? searchIcpc(icpc.data, query) : []), [icpc.data, query])
  const typed = query.trim() !== ''

  return (
    <Field disabled={disabled}>
      <Label className="block text-sm font-medium text-slate-900">{t.addCode}</Label>
      <Combobox<IcpcCode | null>
        value={null}
        onChange={(code) => {
          if (!code) return
          setQuery('')
          onAdd(icpcId(code))
        }}
        onClose={() => setQuery('')}
      >
        <div className="relative mt-2">
          <Icon name="search" className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-400" />
          <ComboboxInput<IcpcCode | null>
            className={`${inputClass} pl-9`}
            placeholder={t.codePlaceholder}
            displayValue={() => query}
            onChange={(event) => setQuery(event.target.value)}
            autoComplete="off"
          />
        </div>
        {/* not modal: a click elsewhere (on 'Opslaan', say) works at once */}
        <ComboboxOptions anchor="bottom start" modal={false} className={optionsClass}>
          {matches.map((code) => {
            const id = icpcId(code)
            const added = selected.includes(id)
            return (
              <ComboboxOption
                key={id}
                value={code}
                className="flex cursor-pointer items-baseline gap-3 px-3 py-2 text-slate-700 select-none data-focus:bg-brand-50 data-focus:text-slate-900"
              >
                <span className="w-10 shrink-0 font-mono font-semibold text-slate-900">{id}</span>{' '}
                <span className="min-w-0 flex-1">
                  <span className="block">{code.patientTitle}</span>{' '}
                  <span className="block text-xs text-slate-500">{code.officialTitle}</span>
                </span>
                {added && (
                  <span className="shrink-0 text-xs text-brand-700">
                    {' '}
                    <Icon name="checkCircle" className="inline size-4" /> {t.alreadyAdded}
                  </span>
                )}
              </ComboboxOption>
            )
          })}
        </ComboboxOptions>
      </Combobox>
      <p className="mt-1 min-h-5 text-xs text-slate-500" aria-live="polite">
        {icpc.isPending ? t.codesLoading : icpc.isError ? t.codesFailed : typed && matches.length === 0 ? t.noCodeMatches : ''}
      </p>
    </Field>
  )
}
