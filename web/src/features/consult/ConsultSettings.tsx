import { TEMPLATES, type Template } from './result'
import { consultTexts as t } from './texts'

/** The template (unless `onTemplate` is null: one template only), the number of episodes (SOEP only) and the precision. */
export function ConsultSettings(props: {
  template: Template
  onTemplate: ((template: Template) => void) | null
  episodeCount: number
  onEpisodeCount: (n: number) => void
  precision: 'medium' | 'high'
  onPrecision: (p: 'medium' | 'high') => void
  showEpisodes: boolean
}) {
  const select = 'rounded-md border-0 py-1 pr-7 pl-2 text-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700'
  return (
    <div className="mt-4 flex flex-wrap items-center gap-4 text-sm text-slate-700" role="group" aria-label={t.settings}>
      {props.onTemplate && (
        <label className="flex items-center gap-2">
          {t.template}
          <select className={select} value={props.template} onChange={(e) => props.onTemplate?.(e.target.value as Template)}>
            {TEMPLATES.map((name) => (
              <option key={name} value={name}>
                {t.templates[name]}
              </option>
            ))}
          </select>
        </label>
      )}
      {props.showEpisodes && (
        <label className="flex items-center gap-2">
          {t.episodes}
          <select className={select} value={props.episodeCount} onChange={(e) => props.onEpisodeCount(Number(e.target.value))}>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex items-center gap-2">
        {t.precision}
        <select className={select} value={props.precision} onChange={(e) => props.onPrecision(e.target.value as 'medium' | 'high')}>
          <option value="medium">{t.precisionMedium}</option>
          <option value="high">{t.precisionHigh}</option>
        </select>
      </label>
    </div>
  )
}
