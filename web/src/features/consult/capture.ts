import workletUrl from './capture.worklet.js?url&no-inline'

/** The microphone as the page records it. */
export interface Capture {
  /** For the waveform. */
  analyser: AnalyserNode
  /** The device's own rate; the worklet resamples it to 16 kHz. */
  deviceRate: number
  /** The device actually used (the remembered one may be gone). */
  deviceId: string | undefined
  stop(): void
}

/** Capture constraints from the specification: mono, 16 kHz, echo cancellation off, noise
 * suppression on, auto gain off. The rate is a wish; the worklet resamples what comes. */
export function audioConstraints(deviceId: string | null): MediaTrackConstraints {
  return {
    ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    channelCount: 1,
    sampleRate: 16000,
    echoCancellation: false,
    noiseSuppression: true,
    autoGainControl: false,
  }
}

async function openStream(deviceId: string | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new TypeError('no getUserMedia')
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: audioConstraints(deviceId) })
  } catch (error) {
    // the remembered microphone is gone: take the default one
    if (deviceId && error instanceof DOMException && (error.name === 'OverconstrainedError' || error.name === 'NotFoundError')) {
      return navigator.mediaDevices.getUserMedia({ audio: audioConstraints(null) })
    }
    throw error
  }
}

/**
 * Opens the microphone and starts the worklet; every 500 ms `onFrame` gets 8000 samples of
 * 16 kHz PCM16. `context` should be made in the click handler so the browser lets it run.
 */
export async function startCapture(context: AudioContext, deviceId: string | null, onFrame: (frame: Int16Array) => void): Promise<Capture> {
  const stream = await openStream(deviceId)
  try {
    if (context.state === 'suspended') await context.resume()
    await context.audioWorklet.addModule(workletUrl)
    const source = context.createMediaStreamSource(stream)
    const node = new AudioWorkletNode(context, 'pcm16-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
      processorOptions: { targetRate: 16000, frameSamples: 8000 },
    })
    node.port.onmessage = (event: MessageEvent<ArrayBuffer>) => onFrame(new Int16Array(event.data))
    const analyser = context.createAnalyser()
    analyser.fftSize = 1024
    source.connect(node)
    source.connect(analyser)
    const track = stream.getAudioTracks()[0]
    return {
      analyser,
      deviceRate: context.sampleRate,
      deviceId: track?.getSettings().deviceId,
      stop() {
        node.port.onmessage = null
        source.disconnect()
        node.disconnect()
        stream.getTracks().forEach((t) => t.stop())
        void context.close().catch(() => {})
      },
    }
  } catch (error) {
    stream.getTracks().forEach((t) => t.stop())
    throw error
  }
}
