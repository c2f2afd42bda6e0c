import { Field, Input, Label, Textarea } from '@headlessui/react'
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { dangerButtonClass, iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { Icon } from '@/components/Icon'
import {
  groupQueryOptions,
  refreshAfterChange,
  templateKeys,
  updateGroup,
  useDeleteTemplate,
  type TemplateEntry,
  type TemplateGroup,
} from './api'
import { CodeChips } from './components/CodeChips'
import { inputClass } from './components/CodePicker'
import { EditLayout, labelClass, SaveStatus, UnsavedNote, unsavedRingClass } from './components/EditLayout'
import { EntryPicker } from './components/EntryPicker'
import { VisibilityBadge } from './components/VisibilityBadge'
import { editTexts as t, soepTypeName, templateTexts } from './texts'
import { useAutosave, type SaveResult } from './useAutosave'
import { useTemplateToasts } from './useTemplateToasts'

interface GroupFields {
  title: string
  description: string
  /** The ids of the entries, in order. */
  entries: string[]
}

/** /template/group/{id}: edit a group and its entries, or read it when the user may not change it. */
export function GroupEditPage({ id }: { id: string }) {
  const { data: group } = useSuspenseQuery(groupQueryOptions(id))
  return group.canEdit ? <GroupEditor group={group} /> : <GroupReadOnly group={group} />
}

function Meta({ group }: { group: TemplateGroup }) {
  return (
    <>
      <VisibilityBadge visibility={group.visibilityType} />
      {group.owner && (
        <span>
          {t.owner}: {group.owner.name}
        </span>
      )}
    </>
  )
}

const ids = (entries: readonly TemplateEntry[]) => entries.map((entry) => entry.id)

function EntryList({ entries, onRemove }: { entries: readonly TemplateEntry[]; onRemove?: (entry: TemplateEntry) => void }) {
  if (entries.length === 0) return <p className="text-sm text-slate-500">{t.noEntries}</p>
  return (
    <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
      {entries.map((entry) => {
        const name = entry.title || templateTexts.untitled
        return (
          <li key={entry.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <Link
                to="/template/entry/$entryId"
                params={{ entryId: entry.id }}
                className="font-medium text-brand-700 hover:text-brand-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                {name}
              </Link>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span>{soepTypeName(entry.soepType)}</span>
                <CodeChips codes={entry.codes} />
              </div>
            </div>
            {onRemove && (
              <button type="button" onClick={() => onRemove(entry)} className={`${iconButtonClass} hover:text-red-700`}>
                <Icon name="close" className="size-4" />
                {t.removeFromGroup}
                <span className="sr-only">{templateTexts.forTitle(name)}</span>
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}

function GroupEditor({ group }: { group: TemplateGroup }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const toasts = useTemplateToasts('group')
  const [title, setTitle] = useState(group.title)
  const [description, setDescription] = useState(group.description)
  const [entries, setEntries] = useState(group.entries)
  const [confirming, setConfirming] = useState(false)
  const [leaving, setLeaving] = useState(false)
  const remove = useDeleteTemplate('group')
  // the entries as the api last confirmed them, to go back to when a change is refused
  const savedEntries = useRef(group.entries)

  const autosave = useAutosave<GroupFields>(
    { title: group.title, description: group.description, entries: ids(group.entries) },
    async ({ entries: entryIds, ...rest }) => {
      const updated = await updateGroup(group.id, { ...rest, ...(entryIds ? { entries: entryIds.map((id) => ({ id })) } : {}) })
      if (entryIds) savedEntries.current = updated.entries
      queryClient.setQueryData(templateKeys.one('group', group.id), updated)
      refreshAfterChange(queryClient, 'group')
    },
  )

  const report = (result: SaveResult<GroupFields>) => {
    if (result.ok) {
      if (result.changed) toasts.saved(true)
      return
    }
    toasts.saveFailed(result.error)
    // the entries go back to what the api has, so they are not marked unsaved; the title and description keep what was typed, marked
    if ('entries' in result.changes) {
      setEntries(savedEntries.current)
      autosave.settle(['entries'])
    }
  }

  const saveFields = (changes: Partial<GroupFields>) => void autosave.save(changes).then(report)

  const changeEntries = (next: TemplateEntry[]) => {
    setEntries(next)
    saveFields({ entries: ids(next) })
  }
  const addEntry = (entry: TemplateEntry) => {
    if (entries.some((e) => e.id === entry.id)) return
    changeEntries([...entries, entry])
  }

  const saveAndLeave = async () => {
    setLeaving(true)
    const result = await autosave.flush({ title, description, entries: ids(entries) })
    if (!result.ok) {
      setLeaving(false)
      report(result)
      return
    }
    toasts.saved(result.changed)
    void navigate({ to: '/template', search: { tab: 'groepen' } })
  }

  const confirmDelete = () =>
    remove.mutate(group.id, {
      onSuccess: () => {
        setConfirming(false)
        toasts.deleted()
        // the cached group goes once the page that shows it is gone
        void navigate({ to: '/template', search: { tab: 'groepen' } }).then(() => queryClient.removeQueries({ queryKey: templateKeys.one('group', group.id) }))
      },
      onError: (error) => {
        setConfirming(false)
        toasts.deleteFailed(error)
      },
    })

  return (
    <EditLayout heading={t.groupHeading} meta={<Meta group={group} />} status={<SaveStatus saving={autosave.saving} unsaved={autosave.unsaved.size > 0} />}>
      {/* not a form: Enter in a search field must not save and leave the page */}
      <div className="space-y-6">
        <Field>
          <Label className={labelClass}>{t.titleLabel}</Label>
          <Input
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            onBlur={() => saveFields({ title })}
            maxLength={200}
            invalid={autosave.unsaved.has('title')}
            className={`mt-2 ${inputClass} ${unsavedRingClass}`}
          />
          <UnsavedNote shown={autosave.unsaved.has('title')} />
        </Field>

        <Field>
          <Label className={labelClass}>{t.descriptionLabel}</Label>
          <Textarea
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            onBlur={() => saveFields({ description })}
            rows={3}
            maxLength={1000}
            invalid={autosave.unsaved.has('description')}
            className={`mt-2 ${inputClass} ${unsavedRingClass}`}
          />
          <UnsavedNote shown={autosave.unsaved.has('description')} />
        </Field>

        <section aria-labelledby="group-entries">
          <h2 id="group-entries" className={labelClass}>
            {t.entriesLabel}
          </h2>
          <div className="mt-2">
            <EntryList entries={entries} onRemove={(entry) => changeEntries(entries.filter((e) => e.id !== entry.id))} />
          </div>
          <div className="mt-4">
            <EntryPicker selected={ids(entries)} onAdd={addEntry} />
          </div>
        </section>

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-6">
          <button type="button" onClick={() => setConfirming(true)} className={dangerButtonClass}>
            {t.remove}
          </button>
          <div className="flex gap-3">
            <Link to="/template" search={{ tab: 'groepen' }} className={secondaryButtonClass}>
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
        title={templateTexts.confirmDeleteGroupTitle}
        message={templateTexts.confirmDeleteGroup(title || templateTexts.untitled)}
        confirmLabel={t.remove}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setConfirming(false)}
      />
    </EditLayout>
  )
}

function GroupReadOnly({ group }: { group: TemplateGroup }) {
  return (
    <EditLayout heading={t.groupReadOnlyHeading} meta={<Meta group={group} />}>
      <p className="rounded-md bg-slate-50 px-4 py-3 text-sm text-slate-600">{t.readOnly}</p>
      <dl className="mt-6 space-y-6 text-sm">
        <div>
          <dt className={labelClass}>{t.titleLabel}</dt>
          <dd className="mt-1 text-slate-700">{group.title || templateTexts.untitled}</dd>
        </div>
        <div>
          <dt className={labelClass}>{t.descriptionLabel}</dt>
          <dd className="mt-1 whitespace-pre-wrap text-slate-700">{group.description}</dd>
        </div>
        <div>
          <dt className={labelClass}>{t.entriesLabel}</dt>
          <dd className="mt-2">
            <EntryList entries={group.entries} />
          </dd>
        </div>
      </dl>
    </EditLayout>
  )
}
