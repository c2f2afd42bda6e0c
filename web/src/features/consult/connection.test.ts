import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AudioBacklog } from './backlog'
import {
  afterClose,
  parseServerMessage,
  reconnectDelay,
  SpeechConnection,
  speechUrl,
  type ConnectionStatus,
  type ServerMessage,
} from './connection'

describe('AudioBacklog', () => {
  it('keeps frames in order and empties on drain', () => {
    const backlog = new AudioBacklog(1, 16000)
    backlog.push(Int16Array.of(1, 2))
    backlog.push(Int16Array.of(3))
    expect(backlog.samples).toBe(3)
    expect(backlog.drain().map((f) => [...f])).toEqual([[1, 2], [3]])
    expect(backlog.isEmpty).toBe(true)
  })

  it('is bounded: past its limit it refuses frames and says so until drained', () => {
    const backlog = new AudioBacklog(1, 16000) // one second
    for (let i = 0; i < 2; i++) expect(backlog.push(new Int16Array(8000))).toBe(true)
    expect(backlog.overflowed).toBe(false)
    expect(backlog.push(new Int16Array(8000))).toBe(false)
    expect(backlog.overflowed).toBe(true)
    expect(backlog.seconds).toBe(1)
    backlog.drain()
    expect(backlog.overflowed).toBe(false)
  })

  it('holds ten minutes of 16 kHz audio by default', () => {
    expect(new AudioBacklog().maxSamples).toBe(600 * 16000)
  })
})

describe('parseServerMessage', () => {
  it('takes JSON whose type the server sends, and nothing else', () => {
    expect(parseServerMessage('{"type":"pong"}')).toEqual({ type: 'pong' })
    const job = parseServerMessage('{"type":"job","id":"j1","state":"dead","message":"Mislukt."}')
    expect(job?.type === 'job' && job.state).toBe('dead')
    expect(parseServerMessage('{"type":"correction","idx":1}')).toBeNull()
    expect(parseServerMessage('{"type":"toString"}')).toBeNull()
    expect(parseServerMessage('{"state":"succeeded"}')).toBeNull()
    expect(parseServerMessage('"pong"')).toBeNull()
    expect(parseServerMessage('null')).toBeNull()
    expect(parseServerMessage('{type: pong}')).toBeNull()
  })
})

describe('afterClose', () => {
  it('reconnects after a drop, renews the token once after 4401, and stops on a refusal', () => {
    expect(afterClose(1006, false)).toBe('reconnect')
    expect(afterClose(1011, false)).toBe('reconnect')
    expect(afterClose(4401, false)).toBe('renew')
    expect(afterClose(4401, true)).toBe('final')
    for (const code of [4403, 4404, 4409, 4410, 1009]) expect(afterClose(code, false)).toBe('final')
    expect(afterClose(1013, false)).toBe('reconnect')
  })
})

describe('reconnectDelay', () => {
  it('grows with the attempt, honours a busy server\'s retry delay, and adds up to as much again at random', () => {
    expect([0, 1, 2, 3, 4, 9].map((attempt) => reconnectDelay(attempt))).toEqual([250, 500, 1000, 2000, 4000, 4000])
    expect(reconnectDelay(0, 0.5)).toBe(375)
    expect(reconnectDelay(0, 0, 3000)).toBe(3000)
    expect(reconnectDelay(0, 0.99, 3000)).toBe(5970)
    // the attempt's own delay when it is the longer one
    expect(reconnectDelay(4, 0, 1000)).toBe(4000)
  })
})

/** A socket the test drives. */
class FakeSocket {
  static CONNECTING = 0
  static OPEN = 1
  static CLOSING = 2
  static CLOSED = 3
  readyState = 0
  binaryType = 'blob'
  sent: unknown[] = []
  onopen: (() => void) | null = null
  onmessage: ((e: { data: unknown }) => void) | null = null
  onclose: ((e: { code: number; reason: string }) => void) | null = null
  readonly url: string
  readonly protocols: string[]
  constructor(url: string, protocols: string[]) {
    this.url = url
    this.protocols = protocols
  }
  send(data: unknown) {
    this.sent.push(data)
  }
  close() {
    this.readyState = 3
  }
  serverOpens(message: Partial<Extract<ServerMessage, { type: 'ready' }>> = {}) {
    this.readyState = 1
    this.onopen?.()
    this.onmessage?.({ data: JSON.stringify({ type: 'ready', sessionId: 's', consultId: 'c', model: 'multilingual', engine: 'openai', resumed: false, ...message }) })
  }
  says(message: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) })
  }
  drops(code = 1006) {
    this.readyState = 3
    this.onclose?.({ code, reason: '' })
  }
}

describe('SpeechConnection', () => {
  let sockets: FakeSocket[]
  let statuses: ConnectionStatus[]
  let backlogSignals: boolean[]

  beforeEach(() => {
    vi.useFakeTimers()
    vi.stubGlobal('WebSocket', FakeSocket)
    sockets = []
    statuses = []
    backlogSignals = []
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  let messages: ServerMessage[]

  function connect(tokens: string[] = ['t1', 't2'], random = () => 0) {
    const token = vi.fn((renew: boolean) => Promise.resolve(renew ? tokens[1] : tokens[0]))
    messages = []
    const conn = new SpeechConnection({
      url: 'ws://x/ws/speech/consult/s?model=multilingual',
      token,
      random,
      onMessage: (message) => messages.push(message),
      onStatus: (s) => statuses.push(s),
      onBacklog: (full) => backlogSignals.push(full),
      createSocket: (url, protocols) => {
        const socket = new FakeSocket(url, protocols)
        sockets.push(socket)
        return socket as unknown as WebSocket
      },
    })
    conn.start()
    return { conn, token }
  }

  const frame = (n: number) => Int16Array.of(n, n)
  const sentFrames = (socket: FakeSocket) => socket.sent.filter((d) => d instanceof ArrayBuffer).map((b) => [...new Int16Array(b)][0])

  it('sends the bearer token as a subprotocol and audio once the server is ready', async () => {
    const { conn } = connect()
    await vi.runOnlyPendingTimersAsync()
    expect(sockets[0].protocols).toEqual(['speech.v1', 'bearer.t1'])
    conn.sendAudio(frame(1)) // before ready: kept
    sockets[0].serverOpens()
    conn.sendAudio(frame(2))
    expect(sentFrames(sockets[0])).toEqual([1, 2])
  })

  it('keeps a message sent before the server is ready and sends it after the audio kept before it', async () => {
    const { conn } = connect()
    await vi.runOnlyPendingTimersAsync()
    conn.sendAudio(frame(1))
    expect(conn.sendJson({ type: 'ping' })).toBe(true) // a click between Start and ready
    expect(sockets[0].sent).toEqual([])
    sockets[0].serverOpens()
    const sent = sockets[0].sent.map((d) => (d instanceof ArrayBuffer ? 'audio' : (JSON.parse(d as string) as { type: string }).type))
    expect(sent).toEqual(['audio', 'ping'])
    // once the connection has ended for good, nothing is taken
    conn.close()
    expect(conn.sendJson({ type: 'ping' })).toBe(false)
  })

  it('keeps the audio of a drop and sends it, in order, after reconnecting', async () => {
    const { conn } = connect()
    await vi.runOnlyPendingTimersAsync()
    sockets[0].serverOpens()
    conn.sendAudio(frame(1))
    sockets[0].drops(1006)
    expect(statuses.at(-1)).toEqual({ kind: 'reconnecting', attempt: 0 })
    conn.sendAudio(frame(2))
    conn.sendAudio(frame(3))
    expect(conn.backlog.samples).toBe(4)
    await vi.advanceTimersByTimeAsync(300)
    expect(sockets).toHaveLength(2)
    conn.sendAudio(frame(4)) // the new socket is not ready yet
    sockets[1].serverOpens({ resumed: true })
    conn.sendAudio(frame(5))
    expect(sentFrames(sockets[0])).toEqual([1])
    expect(sentFrames(sockets[1])).toEqual([2, 3, 4, 5])
    expect(statuses.at(-1)).toEqual({ kind: 'ready' })
    expect(conn.backlog.isEmpty).toBe(true)
  })

  it('says when the backlog overflows', async () => {
    const { conn } = connect()
    await vi.runOnlyPendingTimersAsync()
    sockets[0].serverOpens()
    sockets[0].drops(1006)
    const half = new Int16Array(8000)
    for (let i = 0; i < 1200; i++) conn.sendAudio(half) // exactly ten minutes
    expect(backlogSignals).toEqual([])
    conn.sendAudio(half)
    expect(backlogSignals).toEqual([true])
    await vi.advanceTimersByTimeAsync(300)
    sockets[1].serverOpens({ resumed: true })
    expect(backlogSignals).toEqual([true, false])
    expect(sentFrames(sockets[1])).toHaveLength(1200)
  })

  it('renews the token once after 4401', async () => {
    const { token } = connect()
    await vi.runOnlyPendingTimersAsync()
    sockets[0].drops(4401)
    await vi.runOnlyPendingTimersAsync()
    expect(token).toHaveBeenLastCalledWith(true)
    expect(sockets[1].protocols).toEqual(['speech.v1', 'bearer.t2'])
    sockets[1].drops(4401)
    expect(statuses.at(-1)).toEqual({ kind: 'closed', code: 4401, reason: '' })
  })

  it('stops for good when the session is taken over or expired', async () => {
    const { conn } = connect()
    await vi.runOnlyPendingTimersAsync()
    sockets[0].serverOpens()
    sockets[0].drops(4409)
    expect(statuses.at(-1)).toMatchObject({ kind: 'closed', code: 4409 })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(sockets).toHaveLength(1)
    conn.sendAudio(frame(1))
    expect(conn.backlog.isEmpty).toBe(true)
  })

  it('gives up after the resume window', async () => {
    connect()
    await vi.runOnlyPendingTimersAsync()
    sockets[0].serverOpens()
    sockets[0].drops(1006)
    for (let i = 0; i < 200 && statuses.at(-1)?.kind !== 'closed'; i++) {
      await vi.advanceTimersByTimeAsync(5000)
      sockets.at(-1)!.drops(1006)
    }
    expect(statuses.at(-1)).toMatchObject({ kind: 'closed', code: 4000 })
  })

  it('after a busy refusal waits for the server\'s retry delay plus jitter, keeping the audio', async () => {
    const { conn } = connect(['t1', 't2'], () => 0.5)
    await vi.runOnlyPendingTimersAsync()
    sockets[0].readyState = 1
    sockets[0].onopen?.()
    sockets[0].says({ type: 'error', code: 'busy', message: 'Het is even te druk op de server.', retryAfter: 3 })
    sockets[0].drops(1013)
    expect(messages).toEqual([]) // no error for the page to show: it reconnects
    expect(statuses.at(-1)).toEqual({ kind: 'reconnecting', attempt: 0 })
    conn.sendAudio(frame(1))
    await vi.advanceTimersByTimeAsync(4400) // 3 s and half as much again
    expect(sockets).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(200)
    expect(sockets).toHaveLength(2)
    sockets[1].serverOpens()
    expect(sentFrames(sockets[1])).toEqual([1])

    // a 1013 without a delay named: two seconds
    sockets[1].drops(1013)
    await vi.advanceTimersByTimeAsync(2900)
    expect(sockets).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(200)
    expect(sockets).toHaveLength(3)
  })

  it('closes its socket when the page closes it, and does not reconnect', async () => {
    const { conn } = connect()
    await vi.runOnlyPendingTimersAsync()
    sockets[0].serverOpens()
    conn.close()
    expect(sockets[0].readyState).toBe(3)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(sockets).toHaveLength(1)
  })
})

describe('speechUrl', () => {
  it('uses ws or wss on the page\'s origin with the model', () => {
    expect(speechUrl('http://localhost:8080', 'abc', 'multilingual')).toBe('ws://localhost:8080/ws/speech/consult/abc?model=multilingual')
    expect(speechUrl('https://app.example.nl', 'abc', 'radiology')).toBe('wss://app.example.nl/ws/speech/consult/abc?model=radiology')
  })
})
