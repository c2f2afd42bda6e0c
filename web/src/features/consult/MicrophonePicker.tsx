import type { Microphone } from './microphones'
import { consultTexts as t } from './texts'

/** 'Microfoon': the audio inputs; the choice is remembered by the caller. */
export function MicrophonePicker({
  id,
  microphones,
  value,
  onChange,
}: {
  id: string
  microphones: readonly Microphone[]
  value: string
  onChange: (deviceId: string) => void
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-900">
        {t.microphone}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="min-w-64 rounded-md border-0 py-2 pr-8 pl-3 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700"
      >
        <option value="">{t.selectMicrophone}</option>
        {microphones.map((m) => (
          <option key={m.deviceId || m.label} value={m.deviceId}>
            {m.label}
          </option>
        ))}
      </select>
    </div>
  )
}
