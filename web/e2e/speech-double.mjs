// A speech engine test double that speaks the OpenAI transcription wire format:
// `POST /v1/audio/transcriptions`, a multipart form with `file` (audio.wav), `model`, `language`,
// `prompt` and `response_format`, answered with `{"text": "..."}`.
//
// It cannot recognise speech. A test gives it the script it will hear: the sentences in order and
// how long each lasts when spoken. The N-th request is answered with the N-th sentence only when
// the WAV it received lasts about as long as that sentence; otherwise it answers with a text that
// says what it got, so the test's assertion on the transcript fails. Every request is recorded.
import { createServer } from 'node:http'

/** The fields and the file of a multipart/form-data body. */
export function parseMultipart(body, contentType) {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '')
  if (!match) throw new Error('no multipart boundary')
  const boundary = Buffer.from(`--${match[1] ?? match[2]}`)
  const fields = {}
  let file = null
  let start = body.indexOf(boundary)
  while (start !== -1) {
    const next = body.indexOf(boundary, start + boundary.length)
    if (next === -1) break
    const part = body.subarray(start + boundary.length + 2, next - 2) // skip CRLF after boundary and before the next
    const headerEnd = part.indexOf('\r\n\r\n')
    const headers = part.subarray(0, headerEnd).toString('utf8')
    const content = part.subarray(headerEnd + 4)
    const name = /name="([^"]+)"/.exec(headers)?.[1]
    if (name === 'file') file = { filename: /filename="([^"]+)"/.exec(headers)?.[1], type: /content-type:\s*(\S+)/i.exec(headers)?.[1], content }
    else if (name) fields[name] = content.toString('utf8')
    start = next
  }
  return { fields, file }
}

/** Rate, channels, bits and duration of a PCM WAV file. */
export function wavInfo(buffer) {
  if (buffer.toString('ascii', 0, 4) !== 'RIFF' || buffer.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file')
  let offset = 12
  let format = null
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('ascii', offset, offset + 4)
    const size = buffer.readUInt32LE(offset + 4)
    if (id === 'fmt ') {
      format = { channels: buffer.readUInt16LE(offset + 10), rate: buffer.readUInt32LE(offset + 12), bits: buffer.readUInt16LE(offset + 22) }
    } else if (id === 'data') {
      if (!format) throw new Error('data before fmt')
      const bytes = Math.min(size, buffer.length - offset - 8)
      return { ...format, seconds: bytes / (format.rate * format.channels * (format.bits / 8)) }
    }
    offset += 8 + size + (size % 2)
  }
  throw new Error('no data chunk')
}

/**
 * Starts the double on a free port. `tolerance(seconds)` is how far a WAV may differ from its
 * sentence's length. Returns its base URL, `setScript(sentences)` (each `{ text, seconds }`),
 * `requests()` and `close()`.
 */
export async function startSpeechDouble({ tolerance = (seconds) => 0.6 + 0.15 * seconds } = {}) {
  let script = []
  let requests = []
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
      res.writeHead(404).end()
      return
    }
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      try {
        const { fields, file } = parseMultipart(Buffer.concat(chunks), req.headers['content-type'])
        if (!file) throw new Error('no file')
        const wav = wavInfo(file.content)
        const n = requests.length
        const expected = script[n]
        let text
        if (!expected) text = `onverwachte opname ${n + 1} van ${wav.seconds.toFixed(2)} s`
        else if (Math.abs(wav.seconds - expected.seconds) > tolerance(expected.seconds))
          text = `opname ${n + 1} duurt ${wav.seconds.toFixed(2)} s in plaats van ongeveer ${expected.seconds.toFixed(2)} s`
        else text = expected.text
        requests.push({ fields, filename: file.filename, type: file.type, wav, text })
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }))
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error) } }))
      }
    })
  })
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    setScript(sentences) {
      script = sentences
      requests = []
    },
    requests: () => requests,
    close: () => new Promise((done) => server.close(done)),
  }
}
