import { useCallback, useEffect, useState } from 'react'
import { microphonesOf, rememberedMicrophone, rememberMicrophone, type Microphone } from './microphones'
import { consultTexts as t } from './texts'

/** The audio inputs for the picker, read again when devices change, and the remembered choice. */
export function useMicrophones() {
  const [microphones, setMicrophones] = useState<Microphone[]>([])
  const [microphone, setMicrophone] = useState<string>(() => rememberedMicrophone() ?? '')

  const listMicrophones = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return
    try {
      const devices = await navigator.mediaDevices.enumerateDevices()
      setMicrophones(microphonesOf(devices, t.unnamedMicrophone))
    } catch (error) {
      // the list failing is only logged; the default microphone still works
      console.warn('Microfoons konden niet worden opgevraagd', error)
    }
  }, [])

  useEffect(() => {
    void listMicrophones()
    const devices = navigator.mediaDevices
    if (!devices?.addEventListener) return
    const changed = () => void listMicrophones()
    devices.addEventListener('devicechange', changed)
    return () => devices.removeEventListener('devicechange', changed)
  }, [listMicrophones])

  const choose = useCallback((deviceId: string) => {
    setMicrophone(deviceId)
    rememberMicrophone(deviceId)
  }, [])

  return { microphones, microphone, choose, refresh: listMicrophones }
}
