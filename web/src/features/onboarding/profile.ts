import type { components } from '@/api/schema'
import { practitionerKinds, userKinds, type PractitionerKind, type UserKind } from './texts'

/** The onboarding profile as the api sends and takes it; every field may be missing or null. */
export type OnboardingProfile = components['schemas']['OnboardingUser']

/** What the form holds: text as typed, and '' for a question not answered. */
export interface ProfileForm {
  preferredName: string
  phoneNumber: string
  agbCode: string
  organizationName: string
  userKind: UserKind | ''
  practitionerKind: PractitionerKind | ''
}

export const emptyForm: ProfileForm = {
  preferredName: '',
  phoneNumber: '',
  agbCode: '',
  organizationName: '',
  userKind: '',
  practitionerKind: '',
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null | undefined): T | '' {
  const upper = value?.trim().toUpperCase()
  return allowed.find((option) => option === upper) ?? ''
}

/** The form filled in with a stored profile (or empty without one); an unknown choice is left unanswered. */
export function formFromProfile(profile: OnboardingProfile | null | undefined): ProfileForm {
  if (!profile) return emptyForm
  return {
    preferredName: profile.preferredUsername ?? '',
    phoneNumber: profile.phoneNumber ?? '',
    agbCode: profile.AGBCode ?? '',
    organizationName: profile.organizationName ?? '',
    userKind: oneOf(userKinds, profile.userKind),
    practitionerKind: oneOf(practitionerKinds, profile.practitionerKind),
  }
}

/** The practitioner question is asked of an Arts only. */
export function asksPractitionerKind(userKind: ProfileForm['userKind']): boolean {
  return userKind === 'ARTS'
}

const orNull = (value: string) => value.trim() || null

/**
 * The whole profile for POST /api/user/onboarding/info: trimmed, an empty answer as null (the api
 * clears it), and no practitioner kind unless the role is Arts.
 */
export function profileBody(form: ProfileForm): Required<OnboardingProfile> {
  return {
    preferredUsername: orNull(form.preferredName),
    phoneNumber: orNull(form.phoneNumber),
    AGBCode: orNull(form.agbCode),
    organizationName: orNull(form.organizationName),
    userKind: form.userKind || null,
    practitionerKind: asksPractitionerKind(form.userKind) ? form.practitionerKind || null : null,
  }
}

/** A new role; the practitioner kind goes with any role but Arts, as the question disappears. */
export function withUserKind(form: ProfileForm, userKind: ProfileForm['userKind']): ProfileForm {
  return { ...form, userKind, practitionerKind: asksPractitionerKind(userKind) ? form.practitionerKind : '' }
}
