import type { components } from '@/api/schema'
import { formatDayMonth } from '@/lib/dates'

type PublicConfig = components['schemas']['PublicConfig']

/** How long the renewed screen shows before the browser goes to the new environment. */
export const RENEWED_REDIRECT_MS = 3_000

/** The environment replacing this one, when this one is being retired. */
export interface RetiringEnvironment {
  /** The new environment's address. */
  url: string
  /** The first day this one stops, as the banner writes it ("18 oktober"). */
  day: string
}

/**
 * The retiring-environment settings, or null when this environment is not being retired: both
 * settings are needed, the address must be http(s) and the date a calendar day.
 */
export function retiringEnvironment(
  config: Pick<PublicConfig, 'newEnvironmentUrl' | 'newEnvironmentDate'> | undefined,
): RetiringEnvironment | null {
  const url = config?.newEnvironmentUrl
  const date = config?.newEnvironmentDate
  if (!url || !date) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null
  const day = formatDayMonth(date)
  return day ? { url: parsed.toString(), day } : null
}

/** The query parameter that keeps every page of this environment open. */
export const COMPATIBILITY_PARAM = 'compatibility'

/**
 * The path prefixes that stay open while this environment is being retired, each with the
 * addresses below it: the live consult, the public record-system page, the CMS and subscriptions.
 */
const OPEN_PREFIXES = ['/audioconsult', '/consult', '/cms', '/subscription'] as const
/** Under `/consult`, the first version's consults are not open. */
const CLOSED_PREFIXES = ['/consult/v1'] as const

function under(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`)
}

/** Whether the query string (with or without its '?') holds `compatibility=true`. */
export function hasCompatibility(search: string): boolean {
  return new URLSearchParams(search).getAll(COMPATIBILITY_PARAM).includes('true')
}

/**
 * Whether a page stays available while this environment is being retired: its path lies under
 * consult (but not a v1 consult), cms or subscription, or the query holds `compatibility=true`.
 */
export function isOpenWhileRetiring(pathname: string, search: string): boolean {
  if (hasCompatibility(search)) return true
  if (CLOSED_PREFIXES.some((prefix) => under(pathname, prefix))) return false
  return OPEN_PREFIXES.some((prefix) => under(pathname, prefix))
}

/** Whether a signed-in page shows the retiring banner: every one but the live consult pages. */
export function showsRetiringBanner(pathname: string): boolean {
  return !under(pathname, '/audioconsult')
}

/** Thrown by the signed-in routes' guard: this page shows the renewed screen instead. */
export class EnvironmentRenewed extends Error {
  readonly url: string

  constructor(url: string) {
    super('Deze omgeving is vervangen door de nieuwe omgeving.')
    this.name = 'EnvironmentRenewed'
    this.url = url
  }
}
