import { Field, Input, Label, Textarea } from '@headlessui/react'
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { icpcCodesQueryOptions, icpcId } from '@/features/icpc'
import { entryQueryOptions, refreshAfterChange, templateKeys, updateEntry, useDeleteTemplate, type TemplateEntry } from './api'
import { CodeChips } from './components/CodeChips'
import { CodePicker, inputClass } from './components/CodePicker'
import { EditLayout, labelClass, SaveStatus, UnsavedNote, unsavedRingClass } from './components/EditLayout'
import { VisibilityBadge } from './components/VisibilityBadge'
import { editTexts as t, soepTypeName, templateTexts } from './texts'
import { useAutosave, type SaveResult } from './useAutosave'
import { useTemplateToasts } from './useTemplateToasts'

interface EntryFields {
  title: string
  text: string
  codes: string[]
}

/** /template/entry/{id}: edit an entry, or read it when the user may not change it. */
export function EntryEditPage({ id }: { id: string }) {
  const { data: entry } = useSuspenseQuery(entryQueryOptions(id))
  return entry.canEdit ? <EntryEditor entry={entry} /> : <EntryReadOnly entry={entry} />
}

/** The patient title of each code, once the list is in. */
function useCodeTitles() {
  const icpc = useQuery(icpcCodesQueryOptions())
  return useMemo(() => new Map((icpc.data ?? []).map((code) => [icpcId(code), code.patientTitle])), [icpc.data])
}

function Meta({ entry }: { entry: TemplateEntry }) {
  return (
    <>
      <span>
        {templateTexts.type}: <span className="font-medium text-slate-900">{soepTypeName(entry.soepType)}</span>
      </span>
      <VisibilityBadge visibility={entry.visibilityType} />
      {entry.owner && (
        <span>
          {t.owner}: {entry.owner.name}
        </span>
      )}
    </>
  )
}

function EntryEditor({ entry }: { entry: TemplateEntry }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const toasts = useTemplateToasts('entry')
  const titles = useCodeTitles()
  const [title, setTitle] = useState(entry.title)
  const [text, setText] = useState(entry.text)
  const [codes, setCodes] = useState(entry.codes)
  const [confirming, setConfirming] = useState(false)
  const [leaving, setLeaving] = useState(false)
  const remove = useDeleteTemplate('entry')

  const autosave = useAutosave<EntryFields>({ title: entry.title, text: entry.text, codes: entry.codes }, async (changes) => {
    const updated = await updateEntry(entry.id, changes)
    queryClient.setQueryData(templateKeys.one('entry', entry.id), updated)
    refreshAfterChange(queryClient, 'entry')
  })

  /** Toasts the outcome; a refused code change puts the codes back as the api has them. */
  const report = (result: SaveResult<EntryFields>) => {
    if (result.ok) {
      if (result.changed) toasts.saved(true)
      return
    }
    toasts.saveFailed(result.error)
    // the codes go back to what the api has, so they are not marked unsaved; the title and text keep what was typed, marked
    if ('codes' in result.changes) {
      setCodes(autosave.saved.current.codes)
      autosave.settle(['codes'])
    }
  }

  const saveField = (changes: Partial<EntryFields>) => void autosave.save(changes).then(report)

  const changeCodes = (next: string[]) => {
    setCodes(next)
    saveField({ codes: next })
  }
  const addCode = (code: string) => {
    if (codes.includes(code)) return
    changeCodes([...codes, code])
  }

  const saveAndLeave = async () => {
    setLeaving(true)
    const result = await autosave.flush({ title, text, codes })
    if (!result.ok) {
      setLeaving(false)
      report(result)
      return
    }
    toasts.saved(result.changed)
    void navigate({ to: '/template' })
  }

  const confirmDelete = () =>
    remove.mutate(entry.id, {
      onSuccess: () => {
        setConfirming(false)
        toasts.deleted()
        // the cached entry goes once the page that shows it is gone
        void navigate({ to: '/template' }).then(() => queryClient.removeQueries({ queryKey: templateKeys.one('entry', entry.id) }))
      },
      onError: (error) => {
        setConfirming(false)
        toasts.deleteFailed(error)
      },
    })

  return (
    <EditLayout heading={t.entryHeading} meta={<Meta entry={entry} />} status={<SaveStatus saving={autosave.saving} unsaved={autosave.unsaved.size > 0} />}>
      {/* not a form: Enter in a search field must not save and leave the page */}
      <div className="space-y-6">
        <Field>
          <Label className={labelClass}>{t.titleLabel}</Label>
          <Input
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={() => saveField({ title })}
            autoFocus={entry.title === ''}
            maxLength={200}
            invalid={autosave.unsaved.has('title')}
            className={`mt-2 ${inputClass} ${unsavedRingClass}`}
          />
          <UnsavedNote shown={autosave.unsaved.has('title')} />
        </Field>

        <Field>
          <Label className={labelClass}>{t.textLabel}</Label>
          <Textarea
            value={text}
            onChange={(event) => setText(event.target.value)}
            onBlur={() => saveField({ text })}
            rows={8}
            invalid={autosave.unsaved.has('text')}
            className={`mt-2 ${inputClass} ${unsavedRingClass}`}
          />
          <UnsavedNote shown={autosave.unsaved.has('text')} />
        </Field>

        <div>
          <h2 id="icpc-codes" className={labelClass}>
            {t.codesLabel}
          </h2>
          <div className="mt-2" aria-labelledby="icpc-codes" role="group">
            {codes.length === 0 ? (
              <p className="text-sm text-slate-500">{t.noCodes}</p>
            ) : (
              <CodeChips codes={codes} titles={titles} onRemove={(code) => changeCodes(codes.filter((c) => c !== code))} />
            )}
          </div>
          <div className="mt-4">
            <CodePicker selected={codes} onAdd={addCode} />
          </div>
        </div>

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-6">
          <button type="button" onClick={() => setConfirming(true)} className={dangerButtonClass}>
            {t.remove}
          </button>
          <div className="flex gap-3">
            <Link to="/template" className={secondaryButtonClass}>
              {t.back}
            </Link>
            <button
              type="button"
              onClick={() => void saveAndLeave()}
              disabled={leaving}
              className={`${primaryButtonClass} disabled:opacity-60`}
            >
              {t.save}
            </button>
          </div>
        </div>
      </div>

      <ConfirmDialog
        open={confirming}
        title={templateTexts.confirmDeleteEntryTitle}
        message={templateTexts.confirmDeleteEntry(title || templateTexts.untitled)}
        confirmLabel={t.remove}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setConfirming(false)}
      />
    </EditLayout>
  )
}

function EntryReadOnly({ entry }: { entry: TemplateEntry }) {
  const titles = useCodeTitles()
  return (
    <EditLayout heading={t.entryReadOnlyHeading} meta={<Meta entry={entry} />}>
      <p className="rounded-md bg-slate-50 px-4 py-3 text-sm text-slate-600">{t.readOnly}</p>
      <dl className="mt-6 space-y-6 text-sm">
        <div>
          <dt className={labelClass}>{t.titleLabel}</dt>
          <dd className="mt-1 text-slate-700">{entry.title || templateTexts.untitled}</dd>
        </div>
        <div>
          <dt className={labelClass}>{t.textLabel}</dt>
          <dd className="mt-1 whitespace-pre-wrap text-slate-700">{entry.text || templateTexts.noText}</dd>
        </div>
        <div>
          <dt className={labelClass}>{t.codesLabel}</dt>
          <dd className="mt-2">
            <CodeChips codes={entry.codes} titles={titles} />
          </dd>
        </div>
      </dl>
    </EditLayout>
  )
}
