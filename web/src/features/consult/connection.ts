import type { components } from '@/api/schema'
import { AudioBacklog } from './backlog'

export type Speaker = components['schemas']['Speaker']

/** One finished sentence of the session's transcript. */
export type TranscriptLine = components['schemas']['TranscriptSentence']

/** What the server sends over the speech socket. */
export type ServerMessage = components['schemas']['SpeechServerMessage']

/** What the page sends over the speech socket as text (audio goes as binary frames). */
export type ClientMessage = components['schemas']['SpeechClientMessage']

/** The `request` of a `summarize` message. */
export type SummarizeRequest = components['schemas']['SummarizeRequest']

/** Every `type` the server sends; a message of another type is dropped. */
const SERVER_TYPES: Record<ServerMessage['type'], true> = {
  ready: true,
  transcript: true,
  summarization: true,
  job: true,
  error: true,
  pong: true,
}

/** A text frame as a server message: JSON whose `type` is one the server sends, else null. */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null || !('type' in value)) return null
  const type = value.type
  if (typeof type !== 'string' || !Object.hasOwn(SERVER_TYPES, type)) return null
  // the server serialises exactly the document's SpeechServerMessage; its tag is checked above
  return value as ServerMessage
}

export type ConnectionStatus =
  /** The first connection is being made. */
  | { kind: 'connecting' }
  /** The server said ready; audio flows. */
  | { kind: 'ready' }
  /** The socket went away; trying again, audio is kept. */
  | { kind: 'reconnecting'; attempt: number }
  /** Given up or refused: the code says why. */
  | { kind: 'closed'; code: number; reason: string }

/** Close codes after which trying again cannot help. */
export const FINAL_CODES: readonly number[] = [4400, 4403, 4404, 4409, 4410, 1009]
/** The server refused the token. */
export const UNAUTHENTICATED = 4401
/** The server is busy (RFC 6455: Try Again Later): reconnect after its retry delay, with jitter. */
export const BUSY = 1013
/** The retry delay after a 1013 that came without an `error` message naming one. */
export const BUSY_DEFAULT_MS = 2000
/** The code the page reports when reconnecting failed for longer than the server keeps a session. */
export const GAVE_UP = 4000
/** The page closed the socket itself. */
const NORMAL = 1000

/** How long a dropped session can be resumed on the server. */
export const RESUME_WINDOW_MS = 10 * 60 * 1000
/** Waits between reconnect attempts; the last one repeats. */
export const RECONNECT_DELAYS_MS: readonly number[] = [250, 500, 1000, 2000, 4000]
/** A ping this often; a socket that hears nothing for `SILENT_LIMIT_MS` counts as dropped. */
export const PING_EVERY_MS = 5000
export const SILENT_LIMIT_MS = 30000
/** JSON messages kept while the socket is not ready (a summary request, a few at most). */
const MAX_WAITING_JSON = 8

/** What to do when a socket closed with `code`. */
export function afterClose(code: number, authRetried: boolean): 'final' | 'renew' | 'reconnect' {
  if (FINAL_CODES.includes(code)) return 'final'
  if (code === UNAUTHENTICATED) return authRetried ? 'final' : 'renew'
  return 'reconnect'
}

/**
 * How long to wait before reconnecting: the attempt's delay, or after a busy refusal (1013) the
 * server's retry delay when that is longer; plus up to as much again at random (`random` in
 * [0, 1)), so pages refused or dropped together do not come back together.
 */
export function reconnectDelay(attempt: number, random = 0, busyRetryMs: number | null = null): number {
  const base = Math.max(RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)], busyRetryMs ?? 0)
  return Math.round(base * (1 + random))
}

export interface ConnectionOptions {
  /** The socket's address (ws:// or wss://). */
  url: string
  /** The access token; `renew` asks for a fresh one (after a 4401). */
  token: (renew: boolean) => Promise<string | null | undefined>
  onMessage: (message: ServerMessage) => void
  onStatus: (status: ConnectionStatus) => void
  /** The backlog grew past its bound (audio is being lost) or was sent. */
  onBacklog?: (overflowed: boolean) => void
  createSocket?: (url: string, protocols: string[]) => WebSocket
  now?: () => number
  /** In [0, 1): the jitter of reconnect delays (Math.random). */
  random?: () => number
}

/**
 * One live session's socket: connects, sends audio (or keeps it while the socket is away),
 * reconnects after a drop for as long as the server keeps the session, and stops for good on a
 * refusal.
 */
export class SpeechConnection {
  private socket: WebSocket | null = null
  private ready = false
  /** Messages sent while the socket was not ready, in order. */
  private waitingJson: ClientMessage[] = []
  private stopped = false
  private attempt = 0
  private authRetried = false
  private droppedAt: number | null = null
  private retryTimer: ReturnType<typeof setTimeout> | null = null
  private pingTimer: ReturnType<typeof setInterval> | null = null
  private lastHeard = 0
  /** The retry delay the server named before refusing the socket as busy. */
  private busyRetryMs: number | null = null
  readonly backlog = new AudioBacklog()
  private readonly options: ConnectionOptions

  constructor(options: ConnectionOptions) {
    this.options = options
  }

  private now() {
    return this.options.now ? this.options.now() : Date.now()
  }

  get isReady(): boolean {
    return this.ready
  }

  start() {
    this.options.onStatus({ kind: 'connecting' })
    void this.open(false)
  }

  private async open(renew: boolean) {
    if (this.stopped) return
    let token: string | null | undefined
    try {
      token = await this.options.token(renew)
    } catch {
      token = null
    }
    if (this.stopped) return
    if (!token) {
      this.finish(UNAUTHENTICATED, '')
      return
    }
    const protocols = ['speech.v1', `bearer.${token}`]
    const socket = this.options.createSocket ? this.options.createSocket(this.options.url, protocols) : new WebSocket(this.options.url, protocols)
    socket.binaryType = 'arraybuffer'
    this.socket = socket
    this.ready = false
    socket.onmessage = (event) => {
      if (this.socket !== socket) return
      this.lastHeard = this.now()
      if (typeof event.data !== 'string') return
      const message = parseServerMessage(event.data)
      if (!message) return
      if (message.type === 'error' && message.code === 'busy') {
        // the close (1013) follows; the page shows that it reconnects, not an error
        this.busyRetryMs = Math.max(1, message.retryAfter ?? BUSY_DEFAULT_MS / 1000) * 1000
        return
      }
      if (message.type === 'ready') this.onReady()
      this.options.onMessage(message)
    }
    socket.onclose = (event) => {
      if (this.socket !== socket) return
      this.onClose(event.code, event.reason)
    }
    socket.onopen = () => {
      if (this.socket !== socket) return
      this.lastHeard = this.now()
      this.startPings()
    }
  }

  private onReady() {
    this.ready = true
    this.attempt = 0
    this.authRetried = false
    this.droppedAt = null
    const hadBacklog = !this.backlog.isEmpty || this.backlog.overflowed
    for (const frame of this.backlog.drain()) this.sendFrame(frame)
    for (const message of this.waitingJson.splice(0)) this.socket?.send(JSON.stringify(message))
    if (hadBacklog) this.options.onBacklog?.(false)
    this.options.onStatus({ kind: 'ready' })
  }

  private onClose(code: number, reason: string) {
    this.socket = null
    this.ready = false
    this.stopPings()
    if (this.stopped) return
    const next = afterClose(code, this.authRetried)
    if (next === 'final') {
      this.finish(code, reason)
      return
    }
    if (next === 'renew') {
      this.authRetried = true
      this.options.onStatus({ kind: 'reconnecting', attempt: this.attempt })
      void this.open(true)
      return
    }
    this.droppedAt ??= this.now()
    if (this.now() - this.droppedAt > RESUME_WINDOW_MS) {
      this.finish(GAVE_UP, '')
      return
    }
    this.options.onStatus({ kind: 'reconnecting', attempt: this.attempt })
    const busyRetryMs = code === BUSY ? (this.busyRetryMs ?? BUSY_DEFAULT_MS) : null
    this.busyRetryMs = null
    const delay = reconnectDelay(this.attempt++, (this.options.random ?? Math.random)(), busyRetryMs)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      void this.open(false)
    }, delay)
  }

  private finish(code: number, reason: string) {
    this.stopped = true
    this.stopPings()
    this.backlog.clear()
    this.waitingJson = []
    this.options.onStatus({ kind: 'closed', code, reason })
  }

  private startPings() {
    this.stopPings()
    this.pingTimer = setInterval(() => {
      const socket = this.socket
      if (!socket || socket.readyState !== WebSocket.OPEN) return
      if (this.now() - this.lastHeard > SILENT_LIMIT_MS) {
        // heard nothing for too long: the network is gone even if the socket does not know it
        this.socket = null
        socket.onclose = null
        socket.close()
        this.onClose(1006, '')
        return
      }
      socket.send(JSON.stringify({ type: 'ping' } satisfies ClientMessage))
    }, PING_EVERY_MS)
  }

  private stopPings() {
    if (this.pingTimer) clearInterval(this.pingTimer)
    this.pingTimer = null
  }

  private sendFrame(frame: Int16Array) {
    const socket = this.socket
    if (!socket) return
    // PCM16 little-endian: the platforms browsers run on are little-endian, as Int16Array is
    socket.send(frame.byteOffset === 0 && frame.byteLength === frame.buffer.byteLength ? frame.buffer : frame.slice().buffer)
  }

  /** Sends a frame, or keeps it while the socket is away. */
  sendAudio(frame: Int16Array) {
    if (this.stopped) return
    if (this.ready && this.socket?.readyState === WebSocket.OPEN) {
      this.sendFrame(frame)
      return
    }
    const wasOverflowed = this.backlog.overflowed
    this.backlog.push(frame)
    if (this.backlog.overflowed && !wasOverflowed) this.options.onBacklog?.(true)
  }

  /**
   * Sends a JSON message, or keeps it (after the audio kept before it) until the server is ready:
   * a Samenvatten pressed in the moment between Start and `ready` is sent once the socket is.
   * False only when the connection has ended for good, or too much waits already.
   */
  sendJson(message: ClientMessage): boolean {
    if (this.stopped) return false
    if (this.ready && this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message))
      return true
    }
    if (this.waitingJson.length >= MAX_WAITING_JSON) return false
    this.waitingJson.push(message)
    return true
  }

  /** Ends the session on this page: no reconnecting, nothing kept. */
  close() {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.stopPings()
    this.backlog.clear()
    this.waitingJson = []
    const socket = this.socket
    this.socket = null
    this.ready = false
    if (socket) {
      socket.onclose = null
      socket.onmessage = null
      if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close(NORMAL)
    }
  }
}

/** The socket's address for a session, on this page's origin. */
export function speechUrl(origin: string, sessionId: string, model: 'multilingual' | 'radiology'): string {
  const url = new URL(`/ws/speech/consult/${encodeURIComponent(sessionId)}`, origin)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  url.searchParams.set('model', model)
  return url.toString()
}
