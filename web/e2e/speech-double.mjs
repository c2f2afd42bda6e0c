// A speech engine test double that speaks the OpenAI transcription wire format:
// `POST /v1/audio/transcriptions`, a multipart form with `file` (audio.wav), `model`, `language`,
// `prompt` and `response_format`, answered with `{"text": "..."}`; and speaches' realtime socket,
// `/v1/realtime?intent=transcription`, as speaches 870e1e1 serves it (see
// integrations/tests/support/speaches.rs for the full double and its upstream lines): its own turn
// detection is on until a `session.update` sends all four turn-detection fields (which it answers
// with an `error` about `prefix_padding_ms`, then applies); a commit while that detection is on
// and has heard speech kills the session; no delta events; every commit is answered with
// `committed` and `…input_audio_transcription.completed`.
//
// It cannot recognise speech. A test gives it the script it will hear: the sentences in order and
// how long each lasts when spoken. The N-th request is answered with the N-th sentence only when
// the WAV it received lasts about as long as that sentence; otherwise it answers with a text that
// says what it got, so the test's assertion on the transcript fails. Every request is recorded.
import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'

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
  /** The text of the next utterance, when it lasts about as long as the next sentence. */
  function answer(seconds) {
    const n = requests.length
    const expected = script[n]
    if (!expected) return `onverwachte opname ${n + 1} van ${seconds.toFixed(2)} s`
    if (Math.abs(seconds - expected.seconds) > tolerance(expected.seconds))
      return `opname ${n + 1} duurt ${seconds.toFixed(2)} s in plaats van ongeveer ${expected.seconds.toFixed(2)} s`
    return expected.text
  }
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
        const text = answer(wav.seconds)
        requests.push({ via: 'transcriptions', fields, filename: file.filename, type: file.type, wav, text })
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }))
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error) } }))
      }
    })
  })
  const sockets = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url, 'http://double')
    if (url.pathname !== '/v1/realtime' || url.searchParams.get('intent') !== 'transcription') {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n')
      return
    }
    sockets.handleUpgrade(req, socket, head, (ws) => realtimeSession(ws, url.searchParams))
  })
  let events = 0
  function realtimeSession(ws, query) {
    const send = (event) => ws.send(JSON.stringify({ event_id: `event_${++events}`, ...event }))
    let detection = true // speaches' default: threshold 0.9 (realtime/session.py:62-68)
    let samples = 0
    let heardSpeech = false
    let item = 0
    send({ type: 'session.created', session: { id: 'sess_1' } })
    ws.on('message', (data) => {
      const event = JSON.parse(data.toString())
      if (event.type === 'session.update') {
        const turn = event.session?.turn_detection
        const complete = turn && ['create_response', 'prefix_padding_ms', 'silence_duration_ms', 'threshold'].every((f) => turn[f] != null)
        if (complete) {
          send({ type: 'error', error: { type: 'invalid_request_error', code: null, message: 'Specifying `session.turn_detection.prefix_padding_ms` is not supported. The server either does not support this field or it is not configurable.', param: null, event_id: null } })
          detection = turn.threshold < 1
        }
        send({ type: 'session.updated', session: { turn_detection: { threshold: detection ? 0.9 : 1 } } })
      } else if (event.type === 'input_audio_buffer.append') {
        const count = Buffer.from(event.audio, 'base64').length / 2
        samples += count
        if (detection && count > 0) heardSpeech = true
      } else if (event.type === 'input_audio_buffer.commit') {
        const seconds = samples / 24_000
        if (seconds < 0.1) {
          send({ type: 'error', error: { type: 'invalid_request_error', code: null, message: 'Error committing input audio buffer: buffer too small.', param: null, event_id: null } })
          return
        }
        const id = `item_${++item}`
        send({ type: 'input_audio_buffer.committed', item_id: id, previous_item_id: null })
        samples = 0
        if (heardSpeech) {
          // speaches#567: `assert audio_end_ms is not None` ends the session
          ws.close(1011)
          return
        }
        const text = answer(seconds)
        // recorded in the shape of a batch request, so that the same checks read both
        const fields = { language: query.get('language'), model: query.get('model'), response_format: 'json' }
        requests.push({ via: 'realtime', fields, filename: 'audio.wav', wav: { rate: 16000, channels: 1, bits: 16, seconds }, text })
        send({ type: 'conversation.item.input_audio_transcription.completed', item_id: id, content_index: 0, transcript: text, usage: { type: 'duration', seconds } })
      }
    })
  }
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    setScript(sentences) {
      script = sentences
      requests = []
    },
    requests: () => requests,
    close: () => {
      for (const client of sockets.clients) client.terminate()
      return new Promise((done) => server.close(done))
    },
  }
}
