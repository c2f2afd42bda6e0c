import { describe, expect, it } from 'vitest'
import { microphoneOnReady, typesTranscript } from './microphoneFlow'

describe('microphoneOnReady', () => {
  it('never asks for the microphone without a speech engine', () => {
    expect(microphoneOnReady(null, 'off')).toBe('release')
    expect(microphoneOnReady(null, 'on')).toBe('release')
  })

  it('asks once when the session has an engine', () => {
    expect(microphoneOnReady('whisper', 'off')).toBe('open')
    // a reconnect's ready: the microphone that records keeps recording
    expect(microphoneOnReady('whisper', 'asking')).toBe('keep')
    expect(microphoneOnReady('whisper', 'on')).toBe('keep')
    // a refused microphone is not asked again by itself
    expect(microphoneOnReady('whisper', 'failed')).toBe('keep')
  })
})

describe('typesTranscript', () => {
  it('types without an engine, with a failed engine, or without a microphone', () => {
    expect(typesTranscript(null, false, 'off')).toBe(true)
    expect(typesTranscript('whisper', true, 'on')).toBe(true)
    expect(typesTranscript('whisper', false, 'failed')).toBe(true)
  })

  it('listens while the engine and the microphone work, and before the server said ready', () => {
    expect(typesTranscript('whisper', false, 'on')).toBe(false)
    expect(typesTranscript('whisper', false, 'asking')).toBe(false)
    expect(typesTranscript(undefined, false, 'off')).toBe(false)
  })
})
