/**
 * When the consult page asks for the microphone: only once the server has said which speech
 * engine the session has. Without one, the clinician types the conversation and the page never
 * asks.
 */

/** The microphone on the page: not asked, being opened, recording, or refused/failed. */
export type MicrophoneState = 'off' | 'asking' | 'on' | 'failed'

/** What the page does with the microphone when the server says `ready` (again after a reconnect). */
export function microphoneOnReady(engine: string | null, microphone: MicrophoneState): 'open' | 'release' | 'keep' {
  // nothing listens: no microphone, and one that is open is closed
  if (engine === null) return 'release'
  // ask once; a reconnect keeps the one that records, and a refused one waits for the clinician
  return microphone === 'off' ? 'open' : 'keep'
}

/**
 * Whether the clinician types (or pastes) the conversation: when the session has no engine, when
 * the engine failed, or when the microphone could not be opened.
 */
export function typesTranscript(engine: string | null | undefined, engineFailed: boolean, microphone: MicrophoneState): boolean {
  return engine === null || engineFailed || microphone === 'failed'
}
