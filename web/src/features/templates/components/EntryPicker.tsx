import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { refusalReason } from '@/api/client'
import { Icon } from '@/components/Icon'
import { useDebouncedValue } from '@/lib/useDebouncedValue'
import { entryPageQueryOptions, type TemplateEntry } from '../api'
import { editTexts as t, soepTypeName, templateTexts } from '../texts'
import { ENTRY_SUGGESTIONS, SEARCH_DEBOUNCE_MS, SEARCH_MAX_LENGTH } from '../constants'
import { inputClass, optionsClass } from './CodePicker'

interface EntryPickerProps {
  /** The ids of the group's entries: offered, but choosing one again changes nothing. */
  selected: readonly string[]
  onAdd: (entry: TemplateEntry) => void
}

/** Adds an entry to a group: up to ten entries the api finds for the typed words. */
export function EntryPicker({ selected, onAdd }: EntryPickerProps) {
  const [query, setQuery] = useState('')
  const debounced = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS)
  const found = useQuery({
    ...entryPageQueryOptions({ query: debounced, own: false }, 0, ENTRY_SUGGESTIONS),
    enabled: debounced !== '',
  })
  const matches = debounced !== '' ? (found.data ?? []) : []
  const waiting = query.trim() !== '' && (query.trim() !== debounced || found.isFetching)

  return (
    <Field>
      <Label className="block text-sm font-medium text-slate-900">{t.addEntry}</Label>
      <Combobox<TemplateEntry | null>
        value={null}
        onChange={(entry) => {
          if (!entry) return
          setQuery('')
          onAdd(entry)
        }}
        onClose={() => setQuery('')}
      >
        <div className="relative mt-2">
          <Icon name="search" className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-400" />
          <ComboboxInput<TemplateEntry | null>
            className={`${inputClass} pl-9`}
            placeholder={t.entryPlaceholder}
            displayValue={() => query}
            onChange={(event) => setQuery(event.target.value)}
            maxLength={SEARCH_MAX_LENGTH}
            autoComplete="off"
          />
        </div>
        {/* not modal: a click elsewhere (on 'Opslaan', say) works at once */}
        <ComboboxOptions anchor="bottom start" modal={false} className={optionsClass}>
          {matches.map((entry) => (
            <ComboboxOption
              key={entry.id}
              value={entry}
              className="flex cursor-pointer items-baseline justify-between gap-3 px-3 py-2 text-slate-700 select-none data-focus:bg-brand-50 data-focus:text-slate-900"
            >
              <span className="min-w-0">
                <span className="block font-medium text-slate-900">{entry.title || templateTexts.untitled}</span>{' '}
                <span className="block text-xs text-slate-500">
                  {soepTypeName(entry.soepType)}
                  {entry.codes.length > 0 && ` · ${entry.codes.join(', ')}`}
                </span>
              </span>
              {selected.includes(entry.id) && (
                <span className="shrink-0 text-xs text-brand-700">
                  {' '}
                  <Icon name="checkCircle" className="inline size-4" /> {t.inGroup}
                </span>
              )}
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </Combobox>
      <p className="mt-1 min-h-5 text-xs text-slate-500" aria-live="polite">
        {waiting
          ? t.searchingEntries
          : found.isError
            ? (refusalReason(found.error) ?? templateTexts.loadFailed)
            : debounced !== '' && matches.length === 0
              ? t.noEntryMatches
              : ''}
      </p>
    </Field>
  )
}
