// The capture worklet: takes the microphone's first channel at the device's rate, low-passes it
// and resamples it to 16 kHz, converts it to 16-bit PCM and posts one frame of 500 ms (8000
// samples) at a time to the page, which sends it over the websocket.
//
// Resampling: at 48 kHz or 44.1 kHz (or any rate above 16 kHz) each output sample is the mean of
// the input over its own interval of rate/16000 input samples (area averaging, with the input
// samples at the interval's edges counted by the fraction that falls inside), after a second-order
// Butterworth low-pass at 7 kHz that keeps what lies above 8 kHz from folding back into speech. At
// a rate below 16 kHz the input is interpolated linearly; at 16 kHz it passes unchanged.

const TARGET_RATE = 16000
const FRAME_SAMPLES = 8000
const CUTOFF_HZ = 7000

class Pcm16Capture extends AudioWorkletProcessor {
  constructor(options) {
    super()
    const opts = (options && options.processorOptions) || {}
    this.target = opts.targetRate || TARGET_RATE
    this.frameSamples = opts.frameSamples || FRAME_SAMPLES
    this.ratio = sampleRate / this.target
    this.frame = new Int16Array(this.frameSamples)
    this.filled = 0
    // area averaging
    this.pos = 0
    this.acc = 0
    // linear interpolation (upsampling)
    this.prev = 0
    this.t = 0
    // biquad low-pass (RBJ cookbook, Q = 1/sqrt(2))
    this.filter = this.ratio > 1
    if (this.filter) {
      const w0 = (2 * Math.PI * Math.min(CUTOFF_HZ, sampleRate * 0.45)) / sampleRate
      const alpha = Math.sin(w0) / (2 * Math.SQRT1_2)
      const cos = Math.cos(w0)
      const a0 = 1 + alpha
      this.b0 = (1 - cos) / 2 / a0
      this.b1 = (1 - cos) / a0
      this.b2 = (1 - cos) / 2 / a0
      this.a1 = (-2 * cos) / a0
      this.a2 = (1 - alpha) / a0
      this.x1 = this.x2 = this.y1 = this.y2 = 0
    }
  }

  emit(value) {
    const clamped = value > 1 ? 1 : value < -1 ? -1 : value
    this.frame[this.filled++] = clamped < 0 ? Math.round(clamped * 32768) : Math.round(clamped * 32767)
    if (this.filled === this.frameSamples) {
      const full = this.frame
      this.port.postMessage(full.buffer, [full.buffer])
      this.frame = new Int16Array(this.frameSamples)
      this.filled = 0
    }
  }

  lowpass(x) {
    const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2
    this.x2 = this.x1
    this.x1 = x
    this.y2 = this.y1
    this.y1 = y
    return y
  }

  process(inputs) {
    const input = inputs[0]
    const channel = input && input[0]
    if (!channel) return true
    const ratio = this.ratio
    if (ratio === 1) {
      for (let i = 0; i < channel.length; i++) this.emit(channel[i])
    } else if (ratio > 1) {
      for (let i = 0; i < channel.length; i++) {
        const x = this.lowpass(channel[i])
        let remaining = 1
        while (this.pos + remaining >= ratio) {
          const take = ratio - this.pos
          this.acc += x * take
          this.emit(this.acc / ratio)
          remaining -= take
          this.acc = 0
          this.pos = 0
        }
        this.acc += x * remaining
        this.pos += remaining
      }
    } else {
      // upsampling: output sample n lies at input position n * ratio
      for (let i = 0; i < channel.length; i++) {
        const x = channel[i]
        while (this.t < 1) {
          this.emit(this.prev + (x - this.prev) * this.t)
          this.t += ratio
        }
        this.t -= 1
        this.prev = x
      }
    }
    return true
  }
}

registerProcessor('pcm16-capture', Pcm16Capture)
