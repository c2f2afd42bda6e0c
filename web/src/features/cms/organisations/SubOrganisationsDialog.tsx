import { useState, type FormEvent } from 'react'
import { Field, Label, Switch } from '@headlessui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError } from '@/api/client'
import { ConfirmDialog } from '@/components/ConfirmDialog'
import { iconButtonClass, primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { hisQuery } from '../api'
import { ActiveBadge, inputClass, Modal, selectClass, useTimedMessage } from '../components/ui'
import { MODAL_MESSAGE_MS } from '../rules'
import { cmsTexts } from '../texts'
import {
  addSubOrganisationUser,
  deleteSubOrganisation,
  refreshOrganisations,
  removeSubOrganisationEmail,
  removeSubOrganisationUser,
  saveSubOrganisation,
  setSubOrganisationAdmin,
  setSubOrganisationHis,
  subOrganisationsQuery,
  type MainOrganisation,
  type SubOrganisation,
} from './api'
import { DurationDialog, type DurationTarget } from './DurationDialog'
import { Notice, NoticeProvider, useFeedback, useNotice } from './feedback'
import { DateInput, FormError, ProductSelect, TypeSelect } from './fields'
import {
  addUserProblem,
  emptySubForm,
  mainTermText,
  normalisedEmail,
  productLabel,
  subFormOf,
  subInput,
  subProblem,
  termText,
  typeLabel,
  type SubForm,
} from './rules'
import { organisationTexts as t } from './texts'

const s = t.sub
const u = t.users

/** A red text button for a delete action. */
const dangerIconButtonClass = `${iconButtonClass} text-red-700 hover:bg-red-50 hover:text-red-800`

type Removal =
  | { kind: 'sub'; sub: SubOrganisation }
  | { kind: 'user'; sub: SubOrganisation; userId: string; email: string }
  | { kind: 'email'; sub: SubOrganisation; email: string }

/**
 * 'Suborganisaties': the sub-organisations of a main organisation with, per sub-organisation, its
 * details (edit, delete), its HIS, its Looptijd (when the main organisation keeps none) and its
 * users: accounts with their admin flag and addresses without an account, to add and to remove.
 */
export function SubOrganisationsDialog({ main, onClose }: { main: MainOrganisation | null; onClose: () => void }) {
  const [busy, setBusy] = useState(false)
  const notice = useNotice()
  // the organisation stays shown while the modal fades away
  const [shown, setShown] = useState(main)
  if (main && main !== shown) setShown(main)
  const close = () => {
    notice.clear()
    onClose()
  }
  return (
    <Modal open={main !== null} title={shown ? t.main.subsFor(shown.organizationName) : ''} onClose={close} wide busy={busy}>
      <NoticeProvider show={notice.show}>{shown && <SubOrganisations key={shown.id} main={shown} onBusy={setBusy} />}</NoticeProvider>
      <Notice notice={notice.notice} onClose={notice.clear} />
      <div className="mt-2 flex flex-row-reverse">
        <button type="button" onClick={close} disabled={busy} className={secondaryButtonClass}>
          {cmsTexts.close}
        </button>
      </div>
    </Modal>
  )
}

function SubOrganisations({ main, onBusy }: { main: MainOrganisation; onBusy: (busy: boolean) => void }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const subs = useQuery(subOrganisationsQuery(main.id))
  const [term, setTerm] = useState<DurationTarget | null>(null)
  const [removal, setRemoval] = useState<Removal | null>(null)
  const [removing, setRemoving] = useState(false)
  const termOnMain = main.validDateMainLevel

  const remove = async (what: Removal) => {
    setRemoving(true)
    onBusy(true)
    try {
      if (what.kind === 'sub') await deleteSubOrganisation(main.id, what.sub.id)
      else if (what.kind === 'user') await removeSubOrganisationUser(what.sub.id, what.userId)
      else await removeSubOrganisationEmail(what.sub.id, what.email)
      setRemoval(null)
      feedback({ tone: 'success', message: what.kind === 'sub' ? s.deleted(what.sub.organizationName) : u.removed(what.email) })
    } catch (failure) {
      setRemoval(null)
      const message = what.kind === 'sub' ? s.deleteFailed : u.removeFailed
      feedback({ tone: 'error', message, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setRemoving(false)
      onBusy(false)
    }
  }

  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        {termOnMain ? `${s.termOnMain} ${t.main.columns.term}: ${mainTermText(main)}.` : s.termPerSub}
      </p>

      {subs.isPending && <p className="mt-4 text-sm text-slate-500">{cmsTexts.loading}</p>}
      {subs.isError && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {cmsTexts.loadFailed}
        </p>
      )}
      {subs.isSuccess && subs.data.length === 0 && <p className="mt-4 text-sm text-slate-500">{s.none}</p>}
      {subs.isSuccess && subs.data.length > 0 && (
        <ul className="mt-4 space-y-4">
          {subs.data.map((sub) => (
            <SubOrganisationCard
              key={sub.id}
              main={main}
              sub={sub}
              onTerm={() =>
                setTerm({ kind: 'sub', id: sub.id, name: sub.organizationName, startDate: sub.startDate ?? null, endDate: sub.validUntil ?? null })
              }
              onRemove={setRemoval}
            />
          ))}
        </ul>
      )}

      <AddSubOrganisation main={main} />

      <DurationDialog key={term ? term.id : 'none'} target={term} onClose={() => setTerm(null)} />
      <ConfirmDialog
        open={removal !== null}
        title={removal?.kind === 'sub' ? s.deleteTitle : u.removeTitle}
        message={
          removal === null
            ? ''
            : removal.kind === 'sub'
              ? s.deleteMessage(removal.sub.organizationName)
              : u.removeMessage(removal.email, removal.sub.organizationName)
        }
        confirmLabel={removal?.kind === 'sub' ? s.deleteConfirm : u.removeConfirm}
        busy={removing}
        onConfirm={() => removal && void remove(removal)}
        onClose={() => setRemoval(null)}
      />
    </>
  )
}

/** One sub-organisation: its details or their edit form, its HIS, and its users. */
function SubOrganisationCard({
  main,
  sub,
  onTerm,
  onRemove,
}: {
  main: MainOrganisation
  sub: SubOrganisation
  onTerm: () => void
  onRemove: (removal: Removal) => void
}) {
  const [editing, setEditing] = useState(false)
  const termOnMain = main.validDateMainLevel
  const headingId = `cms-sub-${sub.id}`
  return (
    <li aria-labelledby={headingId} className="rounded-lg p-4 ring-1 ring-slate-200">
      {editing ? (
        <SubOrganisationForm main={main} sub={sub} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0 sm:flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={headingId} className="font-semibold break-words text-slate-900">
                {sub.organizationName}
              </h3>
              <ActiveBadge active={sub.isActive} />
            </div>
            <p className="mt-1 text-sm text-slate-600">
              {[s.agb(sub.agbCode), typeLabel(sub.type), productLabel(sub.productType)].join(' · ')}
            </p>
            <p className="text-sm text-slate-600">
              {t.main.columns.term}: {termOnMain ? `${mainTermText(main)} (${s.mainTerm.toLowerCase()})` : termText(sub.startDate, sub.validUntil)}
            </p>
          </div>
          <div className="-ml-2 flex shrink-0 flex-wrap gap-1 sm:-mr-2 sm:ml-0">
            <button type="button" onClick={() => setEditing(true)} aria-label={s.editFor(sub.organizationName)} className={iconButtonClass}>
              <Icon name="pencil" className="size-4" />
              {s.edit}
            </button>
            {!termOnMain && (
              <button type="button" onClick={onTerm} aria-label={s.termFor(sub.organizationName)} className={iconButtonClass}>
                <Icon name="adjustments" className="size-4" />
                {s.term}
              </button>
            )}
            <button
              type="button"
              onClick={() => onRemove({ kind: 'sub', sub })}
              aria-label={s.deleteFor(sub.organizationName)}
              className={dangerIconButtonClass}
            >
              <Icon name="trash" className="size-4" />
              {s.delete}
            </button>
          </div>
        </div>
      )}
      <HisSelect sub={sub} />
      <Users main={main} sub={sub} onRemove={onRemove} />
    </li>
  )
}

/** The fields of a sub-organisation; its own term only when the main organisation keeps none. */
function SubFields({ form, set, termOnMain }: { form: SubForm; set: (name: keyof SubForm, value: string) => void; termOnMain: boolean }) {
  const f = s.fields
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <label className="block text-sm font-medium text-slate-700">
        {f.name}
        <input
          type="text"
          maxLength={200}
          value={form.organizationName}
          onChange={(event) => set('organizationName', event.target.value)}
          className={`mt-1 ${inputClass}`}
        />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        {f.agbCode}
        <input type="text" maxLength={200} value={form.agbCode} onChange={(event) => set('agbCode', event.target.value)} className={`mt-1 ${inputClass}`} />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        {f.type}
        <TypeSelect value={form.type} onChange={(value) => set('type', value)} className="mt-1" />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        {f.product}
        <ProductSelect value={form.productType} onChange={(value) => set('productType', value)} className="mt-1" />
      </label>
      {!termOnMain && (
        <>
          <DateInput label={f.start} value={form.startDate} onChange={(value) => set('startDate', value)} />
          <DateInput label={f.end} value={form.validUntil} onChange={(value) => set('validUntil', value)} />
        </>
      )}
    </div>
  )
}

/** The edit form of a sub-organisation, checked in the spec's order before it is sent. */
function SubOrganisationForm({ main, sub, onDone }: { main: MainOrganisation; sub: SubOrganisation; onDone: () => void }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const [form, setForm] = useState(() => subFormOf(sub))
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)
  const termOnMain = main.validDateMainLevel

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = subProblem(form, termOnMain)
    if (problem) return error.show(problem)
    error.clear()
    setBusy(true)
    try {
      const saved = await saveSubOrganisation(main.id, subInput(form, termOnMain, sub.id))
      feedback({ tone: 'success', message: s.saved(saved.organizationName) })
      await refreshOrganisations(queryClient)
      onDone()
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) error.show(failure.message)
      else feedback({ tone: 'error', message: s.saveFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={s.editFor(sub.organizationName)}>
      <SubFields form={form} set={(name, value) => setForm((prev) => ({ ...prev, [name]: value }))} termOnMain={termOnMain} />
      <FormError message={error.message} />
      <div className="mt-3 flex flex-row-reverse flex-wrap gap-3">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          {s.save}
        </button>
        <button type="button" onClick={onDone} disabled={busy} className={secondaryButtonClass}>
          {s.cancel}
        </button>
      </div>
    </form>
  )
}

/** 'Suborganisatie toevoegen': a PRACTICE unless another type is chosen; its own term when the main keeps none. */
function AddSubOrganisation({ main }: { main: MainOrganisation }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const [form, setForm] = useState<SubForm>(emptySubForm)
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)
  const termOnMain = main.validDateMainLevel

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = subProblem(form, termOnMain)
    if (problem) return error.show(problem)
    error.clear()
    setBusy(true)
    try {
      const added = await saveSubOrganisation(main.id, subInput(form, termOnMain))
      feedback({ tone: 'success', message: s.added(added.organizationName) })
      setForm(emptySubForm)
      await refreshOrganisations(queryClient)
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) error.show(failure.message)
      else feedback({ tone: 'error', message: s.saveFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="cms-sub-add"
      className="mt-6 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200"
    >
      <h3 id="cms-sub-add" className="mb-3 font-semibold text-slate-900">
        {s.addTitle}
      </h3>
      <SubFields form={form} set={(name, value) => setForm((prev) => ({ ...prev, [name]: value }))} termOnMain={termOnMain} />
      <FormError message={error.message} />
      <div className="mt-3 flex flex-row-reverse">
        <button type="submit" disabled={busy} className={`inline-flex items-center gap-1.5 ${primaryButtonClass}`}>
          <Icon name="plus" className="size-4" />
          {s.addSubmit}
        </button>
      </div>
    </form>
  )
}

/** The sub-organisation's HIS: one of the list, or 'Geen'; saved on choosing. */
function HisSelect({ sub }: { sub: SubOrganisation }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const his = useQuery(hisQuery())
  const [busy, setBusy] = useState(false)

  const choose = async (hisId: string) => {
    setBusy(true)
    try {
      const saved = await setSubOrganisationHis(sub.id, hisId === '' ? null : hisId)
      feedback({ tone: 'success', message: s.hisSaved(saved.organizationName, saved.his?.name ?? s.hisNone) })
    } catch (failure) {
      feedback({ tone: 'error', message: s.hisFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setBusy(false)
    }
  }

  return (
    <label className="mt-3 flex max-w-sm items-center gap-3 text-sm font-medium text-slate-700">
      <span className="shrink-0">{s.his}</span>
      <select
        value={sub.his?.id ?? ''}
        disabled={busy}
        onChange={(event) => void choose(event.target.value)}
        aria-label={s.hisFor(sub.organizationName)}
        className={`${selectClass} disabled:opacity-60`}
      >
        <option value="">{s.hisNone}</option>
        {/* the HIS it has, also while the list loads */}
        {sub.his && !(his.data ?? []).some((h) => h.id === sub.his?.id) && <option value={sub.his.id}>{sub.his.name}</option>}
        {(his.data ?? []).map((h) => (
          <option key={h.id} value={h.id}>
            {h.name}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The users of a sub-organisation: accounts (admin switch, remove), addresses without an account (remove), and the add form. */
function Users({ main, sub, onRemove }: { main: MainOrganisation; sub: SubOrganisation; onRemove: (removal: Removal) => void }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const [switching, setSwitching] = useState<string | null>(null)
  const count = sub.users.length + sub.userEmails.length

  const toggleAdmin = async (userId: string, email: string, admin: boolean) => {
    setSwitching(userId)
    try {
      await setSubOrganisationAdmin(sub.id, userId, admin)
      feedback({ tone: 'success', message: admin ? u.adminOn(email) : u.adminOff(email) })
    } catch (failure) {
      feedback({ tone: 'error', message: u.adminFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      await refreshOrganisations(queryClient)
      setSwitching(null)
    }
  }

  return (
    <div className="mt-4 border-t border-slate-200 pt-3">
      <h4 className="text-sm font-semibold text-slate-900">{u.title(count)}</h4>
      {count === 0 ? (
        <p className="mt-1 text-sm text-slate-500">{u.none}</p>
      ) : (
        <ul aria-label={u.listFor(sub.organizationName)} className="mt-1 divide-y divide-slate-100">
          {sub.users.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
              <span className="min-w-0 text-sm break-all text-slate-900">{user.email}</span>
              <div className="flex items-center gap-3">
                <Field className="flex items-center gap-2">
                  <Switch
                    checked={user.isAdminUser}
                    disabled={switching === user.id}
                    onChange={(admin) => void toggleAdmin(user.id, user.email, admin)}
                    className="group relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-200 p-0.5 transition-colors duration-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-50 data-checked:bg-brand-600"
                  >
                    <span
                      aria-hidden="true"
                      className="size-5 rounded-full bg-white shadow-sm ring-1 ring-slate-900/5 transition-transform duration-200 group-data-checked:translate-x-5"
                    />
                  </Switch>
                  <Label className="cursor-pointer text-sm text-slate-700">{u.admin}</Label>
                </Field>
                <button
                  type="button"
                  onClick={() => onRemove({ kind: 'user', sub, userId: user.id, email: user.email })}
                  aria-label={u.removeFor(user.email)}
                  className={dangerIconButtonClass}
                >
                  <Icon name="trash" className="size-4" />
                  <span className="hidden sm:inline">{u.remove}</span>
                </button>
              </div>
            </li>
          ))}
          {sub.userEmails.map((address) => (
            <li key={address.email} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
              <span className="flex min-w-0 flex-wrap items-center gap-2 text-sm text-slate-900">
                <span className="break-all">{address.email}</span>
                <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">{u.noAccount}</span>
                {address.isAdminUser && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">{u.admin}</span>}
              </span>
              <button
                type="button"
                onClick={() => onRemove({ kind: 'email', sub, email: address.email })}
                aria-label={u.removeFor(address.email)}
                className={dangerIconButtonClass}
              >
                <Icon name="trash" className="size-4" />
                <span className="hidden sm:inline">{u.remove}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <AddUser main={main} sub={sub} />
    </div>
  )
}

/**
 * 'Gebruiker toevoegen': the address is checked ('Email niet ingevuld', 'Email bevat spaties',
 * 'Gebruiker is al toegevoegd') and sent in lower case; 'Registratiemail versturen' is on and
 * 'Beheerder' off by default.
 */
function AddUser({ main, sub }: { main: MainOrganisation; sub: SubOrganisation }) {
  const queryClient = useQueryClient()
  const feedback = useFeedback()
  const [email, setEmail] = useState('')
  const [sendEmail, setSendEmail] = useState(true)
  const [admin, setAdmin] = useState(false)
  const [busy, setBusy] = useState(false)
  const error = useTimedMessage(MODAL_MESSAGE_MS)
  const errorId = `cms-sub-user-error-${sub.id}`

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = addUserProblem(email, sub)
    if (problem) return error.show(problem)
    error.clear()
    setBusy(true)
    try {
      const added = await addSubOrganisationUser(main.id, sub.id, { email: normalisedEmail(email), admin, sendEmail })
      feedback({ tone: 'success', message: added.userId ? u.addedAccount(added.email) : u.addedAddress(added.email) })
      setEmail('')
      setSendEmail(true)
      setAdmin(false)
      await refreshOrganisations(queryClient)
    } catch (failure) {
      if (failure instanceof ApiError && (failure.status === 400 || failure.status === 409)) error.show(failure.message)
      else feedback({ tone: 'error', message: u.addFailed, detail: failure instanceof ApiError ? failure.message : undefined })
    } finally {
      setBusy(false)
    }
  }

  const checkClass = 'size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-700'
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={`${u.add}: ${sub.organizationName}`} className="mt-3">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <label className="block min-w-0 flex-1 basis-56 text-sm font-medium text-slate-700">
          {u.email}
          <input
            type="email"
            autoComplete="off"
            maxLength={200}
            placeholder={u.emailPlaceholder}
            value={email}
            aria-invalid={error.message ? true : undefined}
            aria-describedby={errorId}
            onChange={(event) => setEmail(event.target.value)}
            className={`mt-1 ${inputClass}`}
          />
        </label>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 pb-2">
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={sendEmail} onChange={(event) => setSendEmail(event.target.checked)} className={checkClass} />
            {u.sendEmail}
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={admin} onChange={(event) => setAdmin(event.target.checked)} className={checkClass} />
            {u.makeAdmin}
          </label>
        </div>
        <button type="submit" disabled={busy} className={`inline-flex items-center gap-1.5 ${secondaryButtonClass}`}>
          <Icon name="plus" className="size-4" />
          {u.add}
        </button>
      </div>
      <FormError id={errorId} message={error.message} />
    </form>
  )
}
