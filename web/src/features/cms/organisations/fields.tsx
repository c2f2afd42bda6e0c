/** The small pieces the organisation forms share: the type and product selects and a date field. */
import type { SelectHTMLAttributes } from 'react'
import { inputClass, selectClass } from '../components/ui'
import { organisationTypes, productTypes, typeLabel } from './rules'
import { organisationTexts as t } from './texts'

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  value: string
  onChange: (value: string) => void
}

/** The organisation types by their Dutch name, with an empty choice first ('Kies een type'). */
export function TypeSelect({ value, onChange, className = '', ...props }: SelectProps) {
  const known = value === '' || organisationTypes.includes(value as (typeof organisationTypes)[number])
  return (
    <select value={value} onChange={(event) => onChange(event.target.value)} className={`${selectClass} ${className}`} {...props}>
      <option value="">{t.chooseType}</option>
      {/* a type the list does not know stays choosable as it is */}
      {!known && <option value={value}>{value}</option>}
      {organisationTypes.map((type) => (
        <option key={type} value={type}>
          {typeLabel(type)}
        </option>
      ))}
    </select>
  )
}

/** 'Leeg', 'ION abonnement' or 'Gebruikers abonnement'. */
export function ProductSelect({ value, onChange, className = '', ...props }: SelectProps) {
  return (
    <select value={value} onChange={(event) => onChange(event.target.value)} className={`${selectClass} ${className}`} {...props}>
      <option value="">{t.products.none}</option>
      {productTypes.map((product) => (
        <option key={product} value={product}>
          {t.products[product]}
        </option>
      ))}
    </select>
  )
}

/** A `yyyy-mm-dd` field as text (the format is checked before sending, with the spec's message). */
export function DateInput({
  label,
  value,
  onChange,
  className = '',
  hideLabel = false,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  className?: string
  hideLabel?: boolean
}) {
  return (
    <label className={`block text-sm font-medium text-slate-700 ${className}`}>
      <span className={hideLabel ? 'sr-only' : undefined}>{label}</span>
      <input
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="yyyy-mm-dd"
        maxLength={10}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`${hideLabel ? '' : 'mt-1'} ${inputClass}`}
      />
    </label>
  )
}

/** The line under a form or a row with its first problem (cleared after 8 s by its owner). */
export function FormError({ message, id }: { message: string | null; id?: string }) {
  return (
    <div id={id} aria-live="assertive" className={message ? 'mt-2' : undefined}>
      {message && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {message}
        </p>
      )}
    </div>
  )
}
