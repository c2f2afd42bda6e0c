/** The microphone picker's helpers: labels as shown and the remembered choice. */

export const MICROPHONE_STORAGE_KEY = 'spreekkamer.microphone'

/** A device label without the words 'Built-in', 'Default -' and 'Microphone', and tidy spaces. */
export function cleanLabel(label: string): string {
  return label
    .replace(/Default\s*-/gi, ' ')
    .replace(/Built-in/gi, ' ')
    .replace(/Microphone/gi, ' ')
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\((.*)\)$/, '$1')
}

export interface Microphone {
  deviceId: string
  label: string
}

/** The audio inputs as the picker lists them; a device without a label gets a numbered name. */
export function microphonesOf(devices: readonly MediaDeviceInfo[], unnamed: (n: number) => string): Microphone[] {
  return devices
    .filter((d) => d.kind === 'audioinput')
    .map((d, i) => ({ deviceId: d.deviceId, label: cleanLabel(d.label) || unnamed(i + 1) }))
}

export function rememberedMicrophone(storage: Storage = window.localStorage): string | null {
  try {
    return storage.getItem(MICROPHONE_STORAGE_KEY)
  } catch {
    return null
  }
}

export function rememberMicrophone(deviceId: string, storage: Storage = window.localStorage) {
  try {
    if (deviceId) storage.setItem(MICROPHONE_STORAGE_KEY, deviceId)
    else storage.removeItem(MICROPHONE_STORAGE_KEY)
  } catch {
    // storage may be off (private mode); the choice is then not remembered
  }
}

/** Why the microphone could not be opened, as a key of the page's texts. */
export type MicrophoneProblem = 'micDenied' | 'micMissing' | 'micBusy' | 'micUnsupported'

export function microphoneProblem(error: unknown): MicrophoneProblem {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String(error.name) : ''
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'micDenied'
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'micMissing'
    case 'TypeError':
      return 'micUnsupported'
    default:
      return 'micBusy'
  }
}
