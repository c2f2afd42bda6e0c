import { Description, Field, Input, Label } from '@headlessui/react'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useState, type ChangeEvent } from 'react'
import { refusalReason } from '@/api/client'
import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { TOAST_DURATION_MS } from '@/components/Toast'
import { onboardingQueryOptions, useSaveOnboarding } from './api'
import { asksPractitionerKind, formFromProfile, profileBody, withUserKind, type ProfileForm } from './profile'
import {
  AGB_REGISTER_URL,
  onboardingTexts as t,
  practitionerKindNames,
  practitionerKinds,
  userKindNames,
  userKinds,
} from './texts'

const labelClass = 'block text-sm font-medium text-slate-900'
const helpClass = 'mt-2 text-sm text-slate-500'
const inputClass =
  'mt-2 block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:outline-none'

/** /onboarding/: the profile questionnaire, filled in with what is stored. Nothing in it is required. */
export function OnboardingPage() {
  const profile = useQuery(onboardingQueryOptions())
  return (
    <div className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{t.heading}</h1>
      <p className="mt-2 text-slate-600">{t.intro}</p>
      <div className="mt-8 rounded-xl bg-white p-6 shadow-xs ring-1 ring-slate-200 sm:p-8">
        {profile.isPending ? (
          <Loading />
        ) : (
          // without a stored profile (the call failed) the form starts empty, with a note
          <OnboardingForm initial={formFromProfile(profile.data)} loadFailed={profile.data === undefined} />
        )}
      </div>
    </div>
  )
}

function Loading() {
  return (
    <div>
      <p role="status" className="flex items-center gap-3 text-sm text-slate-500">
        <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />
        {t.loading}
      </p>
      <div aria-hidden="true" className="mt-8 space-y-8">
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="animate-pulse space-y-3">
            <div className="h-3 w-1/3 rounded bg-slate-100" />
            <div className="h-9 rounded-md bg-slate-100" />
          </div>
        ))}
      </div>
    </div>
  )
}

/** The questions. The form is filled once, when it appears; a later refetch does not overwrite what is typed. */
function OnboardingForm({ initial, loadFailed }: { initial: ProfileForm; loadFailed: boolean }) {
  const [form, setForm] = useState(initial)
  const [showLoadFailed] = useState(loadFailed)
  const navigate = useNavigate()
  const save = useSaveOnboarding()
  const { reset } = save

  // The failure message clears itself, like the toasts.
  useEffect(() => {
    if (!save.isError) return
    const timer = setTimeout(reset, TOAST_DURATION_MS)
    return () => clearTimeout(timer)
  }, [save.isError, save.submittedAt, reset])

  const text = (key: 'preferredName' | 'phoneNumber' | 'agbCode' | 'organizationName') => ({
    value: form[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.target.value
      setForm((current) => ({ ...current, [key]: value }))
    },
  })

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        save.mutate(profileBody(form), { onSuccess: () => void navigate({ to: '/' }) })
      }}
    >
      {showLoadFailed && (
        <div role="note" className="mb-8 flex gap-3 rounded-md bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          <Icon name="warning" className="size-5 shrink-0 text-amber-500" />
          <div>
            <p className="font-semibold">{t.loadFailed}</p>
            <p className="mt-1">{t.loadFailedHelp}</p>
          </div>
        </div>
      )}

      <div className="space-y-8">
        <Field>
          <Label className={labelClass}>{t.preferredName}</Label>
          <Input {...text('preferredName')} autoComplete="nickname" maxLength={100} className={inputClass} />
          <Description className={helpClass}>{t.preferredNameHelp}</Description>
        </Field>

        <Field>
          <Label className={labelClass}>{t.phoneNumber}</Label>
          <Input {...text('phoneNumber')} type="tel" autoComplete="tel" className={inputClass} />
          <Description className={helpClass}>{t.phoneNumberHelp}</Description>
        </Field>

        <Field>
          <Label className={labelClass}>{t.agbCode}</Label>
          <Input {...text('agbCode')} inputMode="numeric" autoComplete="off" className={`${inputClass} sm:max-w-xs`} />
          <Description className={helpClass}>
            {t.agbCodeHelp}{' '}
            <a
              href={AGB_REGISTER_URL}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-brand-700 underline hover:text-brand-900"
            >
              {t.agbRegister}
              <span className="sr-only"> {t.newTab}</span>
            </a>
            .
          </Description>
        </Field>

        <Field>
          <Label className={labelClass}>{t.organizationName}</Label>
          <Input {...text('organizationName')} autoComplete="organization" maxLength={200} className={inputClass} />
        </Field>

        <Choice
          legend={t.userKind}
          name="userKind"
          options={userKinds.map((kind) => ({ value: kind, label: userKindNames[kind] }))}
          value={form.userKind}
          onChange={(kind) => setForm((current) => withUserKind(current, kind))}
        />

        {asksPractitionerKind(form.userKind) && (
          <Choice
            legend={t.practitionerKind}
            name="practitionerKind"
            options={practitionerKinds.map((kind) => ({ value: kind, label: practitionerKindNames[kind] }))}
            value={form.practitionerKind}
            onChange={(kind) => setForm((current) => ({ ...current, practitionerKind: kind }))}
          />
        )}
      </div>

      <div className="mt-10 border-t border-slate-100 pt-6">
        {save.isError && <SaveFailed reason={refusalReason(save.error)} />}
        <div className="flex flex-wrap justify-end gap-3">
          <Link to="/" className={secondaryButtonClass}>
            {t.cancel}
          </Link>
          <button type="submit" disabled={save.isPending} className={`${primaryButtonClass} disabled:cursor-not-allowed disabled:opacity-60`}>
            {save.isPending ? t.saving : t.save}
          </button>
        </div>
      </div>
    </form>
  )
}

function SaveFailed({ reason }: { reason: string | undefined }) {
  return (
    <div role="alert" className="mb-6 flex gap-3 rounded-md bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-200">
      <Icon name="xCircle" className="size-5 shrink-0 text-red-600" />
      <div>
        <p className="font-semibold">{t.saveFailed}</p>
        {reason && <p className="mt-1">{reason}</p>}
      </div>
    </div>
  )
}

interface ChoiceProps<T extends string> {
  legend: string
  name: string
  options: { value: T; label: string }[]
  value: T | ''
  onChange: (value: T) => void
}

/** A question with a few answers, as radio buttons in a fieldset. */
function Choice<T extends string>({ legend, name, options, value, onChange }: ChoiceProps<T>) {
  return (
    <fieldset>
      <legend className={labelClass}>{legend}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-center gap-3 rounded-lg px-4 py-3 text-sm font-medium text-slate-900 ring-1 ring-slate-200 hover:bg-slate-50 has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-700"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="size-4 accent-brand-700 focus:outline-none"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
