import type { ReactNode } from 'react'
import { secondaryButtonClass } from '@/components/buttonStyles'
import { CopyButton, GrowingTextarea } from './components'
import { EpisodeCodes } from './EpisodeCodes'
import { EPISODE_FIELDS, evaluationCopyText, specialistText, withCodeAnswer, withEpisodeField, type ConsultForm, type EpisodeField } from './result'
import { consultTexts as t } from './texts'

const fieldNames: Record<EpisodeField, string> = {
  subjective: t.subjective,
  objective: t.objective,
  diagnosis: t.evaluation,
  plan: t.plan,
}

function LabelledField({
  id,
  label,
  value,
  onChange,
  copy = true,
  copyText = value,
  hideLabel = false,
  children,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  copy?: boolean
  /** What 'Kopieren' copies, when it is more than the text. */
  copyText?: string
  hideLabel?: boolean
  /** Shown under the text area. */
  children?: ReactNode
}) {
  return (
    <div>
      <div className="flex items-center justify-between">
        <label htmlFor={id} id={`${id}-label`} className={hideLabel ? 'sr-only' : 'text-sm font-medium text-slate-900'}>
          {label}
        </label>
        {copy && <CopyButton text={copyText} describedBy={`${id}-label`} />}
      </div>
      <GrowingTextarea id={id} value={value} onChange={(e) => onChange(e.target.value)} className="mt-1" />
      {children}
    </div>
  )
}

/** The result of the template, in fields the clinician edits and copies. */
export function ConsultResult({
  form,
  setForm,
  idPrefix,
  fillLastSentences,
  heading = t.result,
  onSplit = null,
}: {
  form: ConsultForm
  setForm: (update: (form: ConsultForm) => ConsultForm) => void
  idPrefix: string
  fillLastSentences: (() => void) | null
  heading?: string
  /** Summarises again as this many episodes; null where the page cannot ask for episodes. */
  onSplit?: ((episodes: number) => void) | null
}) {
  const split = form.template === 'soap' && onSplit && form.problemsFound !== null && form.problemsFound > form.episodes.length ? form.problemsFound : null
  let body
  switch (form.template) {
    case 'soap':
      body = form.episodes.map((episode, index) => (
        <fieldset key={index} className="rounded-xl bg-white p-4 shadow-xs ring-1 ring-slate-200">
          <legend className="px-1 text-base font-semibold text-slate-900">{t.episode(index + 1)}</legend>
          <div className="space-y-3">
            {EPISODE_FIELDS.map((field) => (
              <LabelledField
                key={field}
                id={`${idPrefix}-e${index}-${field}`}
                label={fieldNames[field]}
                value={episode[field]}
                onChange={(value) => setForm((f) => withEpisodeField(f, index, field, value))}
                copyText={field === 'diagnosis' ? evaluationCopyText(episode) : episode[field]}
              >
                {field === 'diagnosis' && (
                  <EpisodeCodes codes={episode.codes} onAnswer={(code, answer) => setForm((f) => withCodeAnswer(f, index, code, answer))} />
                )}
              </LabelledField>
            ))}
          </div>
        </fieldset>
      ))
      break
    case 'report':
      body = <LabelledField id={`${idPrefix}-report`} label={t.report} value={form.report} onChange={(report) => setForm((f) => ({ ...f, report }))} />
      break
    case 'dictation':
    case 'radiology':
      body = (
        <>
          <LabelledField
            id={`${idPrefix}-dictation`}
            label={t.dictation}
            value={form.dictation}
            onChange={(dictation) => setForm((f) => ({ ...f, dictation }))}
          />
          {fillLastSentences && (
            <button type="button" className={secondaryButtonClass} onClick={fillLastSentences}>
              {t.fillLastSentences}
            </button>
          )}
          {form.summarizedDictation !== null && (
            <LabelledField
              id={`${idPrefix}-summary`}
              label={t.summary}
              value={form.summarizedDictation}
              onChange={(summarizedDictation) => setForm((f) => ({ ...f, summarizedDictation }))}
            />
          )}
        </>
      )
      break
    case 'specialist':
      body = (
        <>
          <div className="flex justify-end">
            <CopyButton text={specialistText(form.specialist)} label={t.copyWhole} />
          </div>
          {form.specialist.map((section, index) => (
            <LabelledField
              key={section.name}
              id={`${idPrefix}-s${index}`}
              label={section.name}
              value={section.text}
              onChange={(text) =>
                setForm((f) => ({ ...f, specialist: f.specialist.map((s, i) => (i === index ? { ...s, text } : s)) }))
              }
            />
          ))}
        </>
      )
      break
    case 'meeting':
      body = (
        <LabelledField id={`${idPrefix}-meeting`} label={t.meeting} hideLabel value={form.meeting} onChange={(meeting) => setForm((f) => ({ ...f, meeting }))} />
      )
      break
  }
  return (
    <section aria-labelledby={`${idPrefix}-result`} className="mt-8 space-y-4">
      <div>
        <h2 id={`${idPrefix}-result`} className="text-lg font-semibold text-slate-900">
          {heading}
        </h2>
        {form.extractive && (
          <p className="mt-1 text-xs text-slate-500" data-testid="drafted-without-model">
            {t.draftedWithoutModel}
          </p>
        )}
        {split !== null && onSplit && (
          <p role="status" className="mt-2 flex flex-wrap items-center gap-3 text-sm text-slate-700" data-testid="split-offer">
            {t.problemsFound(split)}
            <button type="button" className={secondaryButtonClass} onClick={() => onSplit(split)}>
              {t.showAsEpisodes(split)}
            </button>
          </p>
        )}
      </div>
      {body}
    </section>
  )
}
