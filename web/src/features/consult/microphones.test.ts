import { describe, expect, it } from 'vitest'
import { cleanLabel, microphoneProblem, microphonesOf, rememberedMicrophone, rememberMicrophone, MICROPHONE_STORAGE_KEY } from './microphones'

describe('cleanLabel', () => {
  it.each([
    ['Default - MacBook Pro Microphone (Built-in)', 'MacBook Pro'],
    ['Built-in Microphone', ''],
    ['Microphone (Jabra Evolve 65)', 'Jabra Evolve 65'],
    ['Default - Headset Microphone (Logitech USB Headset)', 'Headset (Logitech USB Headset)'],
    ['Fake Default Audio Input', 'Fake Default Audio Input'],
    ['Rode NT-USB', 'Rode NT-USB'],
  ])('%j is shown as %j', (label, shown) => {
    expect(cleanLabel(label)).toBe(shown)
  })
})

describe('microphonesOf', () => {
  it('lists the audio inputs, naming a device without a label by its number', () => {
    const devices = [
      { kind: 'audioinput', deviceId: 'a', label: 'Default - Built-in Microphone' },
      { kind: 'videoinput', deviceId: 'v', label: 'Camera' },
      { kind: 'audioinput', deviceId: 'b', label: 'USB Microphone (Blue Yeti)' },
      { kind: 'audiooutput', deviceId: 'o', label: 'Speakers' },
    ] as MediaDeviceInfo[]
    expect(microphonesOf(devices, (n) => `Microfoon ${n}`)).toEqual([
      { deviceId: 'a', label: 'Microfoon 1' },
      { deviceId: 'b', label: 'USB (Blue Yeti)' },
    ])
  })
})

describe('the remembered microphone', () => {
  it('is kept in local storage and forgotten for the default choice', () => {
    localStorage.clear()
    expect(rememberedMicrophone()).toBeNull()
    rememberMicrophone('device-7')
    expect(localStorage.getItem(MICROPHONE_STORAGE_KEY)).toBe('device-7')
    expect(rememberedMicrophone()).toBe('device-7')
    rememberMicrophone('')
    expect(rememberedMicrophone()).toBeNull()
  })
})

describe('microphoneProblem', () => {
  it('tells a refusal from a missing or busy device', () => {
    expect(microphoneProblem(new DOMException('no', 'NotAllowedError'))).toBe('micDenied')
    expect(microphoneProblem(new DOMException('none', 'NotFoundError'))).toBe('micMissing')
    expect(microphoneProblem(new DOMException('busy', 'NotReadableError'))).toBe('micBusy')
    expect(microphoneProblem(new TypeError('no getUserMedia'))).toBe('micUnsupported')
  })
})
