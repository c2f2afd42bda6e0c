/** Audio kept while the socket is away, sent in order once it is back. */

/** 16 kHz mono. */
export const SAMPLE_RATE = 16000
/** At most this much audio is kept: 10 minutes, as long as the server keeps a session to resume. */
export const MAX_BACKLOG_SECONDS = 600

/**
 * A bounded queue of PCM16 frames. When full it keeps what it has (the audio right after the
 * drop, which joins what the server already heard) and refuses the rest, and says so through
 * `overflowed` until it is drained.
 */
export class AudioBacklog {
  private frames: Int16Array[] = []
  private count = 0
  private lost = false
  readonly maxSamples: number

  constructor(maxSeconds: number = MAX_BACKLOG_SECONDS, sampleRate: number = SAMPLE_RATE) {
    this.maxSamples = Math.floor(maxSeconds * sampleRate)
  }

  /** Keeps a frame; false when there is no room left for it. */
  push(frame: Int16Array): boolean {
    if (this.count + frame.length > this.maxSamples) {
      this.lost = true
      return false
    }
    this.frames.push(frame)
    this.count += frame.length
    return true
  }

  get samples(): number {
    return this.count
  }

  get seconds(): number {
    return this.count / SAMPLE_RATE
  }

  get overflowed(): boolean {
    return this.lost
  }

  get isEmpty(): boolean {
    return this.frames.length === 0
  }

  /** Everything kept, oldest first; the backlog is empty afterwards. */
  drain(): Int16Array[] {
    const frames = this.frames
    this.frames = []
    this.count = 0
    this.lost = false
    return frames
  }

  clear() {
    this.drain()
  }
}
