import { Field, Input, Label, Switch } from '@headlessui/react'
import { Icon } from '@/components/Icon'
import { SEARCH_MAX_LENGTH } from '../constants'
import { templateTexts as t } from '../texts'

interface ListToolbarProps {
  query: string
  onQuery: (query: string) => void
  own: boolean
  onOwn: (own: boolean) => void
  placeholder: string
}

/** The search box and the 'Eigen templates' toggle above a template list. */
export function ListToolbar({ query, onQuery, own, onOwn, placeholder }: ListToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
      <Field className="relative w-full sm:w-80">
        <Label className="sr-only">{t.search}</Label>
        <Icon name="search" className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-400" />
        <Input
          type="search"
          maxLength={SEARCH_MAX_LENGTH}
          value={query}
          onChange={(event) => onQuery(event.target.value)}
          placeholder={placeholder}
          className="block w-full rounded-md border-0 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none"
        />
      </Field>
      <Field className="flex items-center gap-3">
        <Switch
          checked={own}
          onChange={onOwn}
          className="group relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-200 p-0.5 transition-colors duration-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-checked:bg-brand-600"
        >
          <span
            aria-hidden="true"
            className="size-5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform duration-200 group-data-checked:translate-x-5"
          />
        </Switch>
        <Label className="cursor-pointer text-sm font-medium text-slate-700">{t.ownTemplates}</Label>
      </Field>
    </div>
  )
}
