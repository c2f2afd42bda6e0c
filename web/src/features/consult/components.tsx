import { useEffect, useLayoutEffect, useRef, useState, type TextareaHTMLAttributes } from 'react'
import { iconButtonClass } from '@/components/buttonStyles'
import { useToast } from '@/components/Toast'
import type { TranscriptLine } from './connection'
import { consultTexts as t } from './texts'

export const MIN_TEXTAREA_PX = 50
export const MAX_TEXTAREA_PX = 300

/** How long after the window stops resizing the text areas fit their text again. */
export const RESIZE_DEBOUNCE_MS = 250

function fitHeight(el: HTMLTextAreaElement) {
  el.style.height = 'auto'
  el.style.height = `${Math.min(MAX_TEXTAREA_PX, Math.max(MIN_TEXTAREA_PX, el.scrollHeight))}px`
}

/** A text area that grows with its text between 50 and 300 px (again when the window's width changes). */
export function GrowingTextarea({ value, className = '', ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { value: string }) {
  const ref = useRef<HTMLTextAreaElement>(null)
  useLayoutEffect(() => {
    if (ref.current) fitHeight(ref.current)
  }, [value])
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const resized = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        if (ref.current) fitHeight(ref.current)
      }, RESIZE_DEBOUNCE_MS)
    }
    window.addEventListener('resize', resized)
    return () => {
      clearTimeout(timer)
      window.removeEventListener('resize', resized)
    }
  }, [])
  return (
    <textarea
      ref={ref}
      value={value}
      style={{ minHeight: MIN_TEXTAREA_PX, maxHeight: MAX_TEXTAREA_PX }}
      className={`block w-full resize-none rounded-md border-0 px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-700 ${className}`}
      {...props}
    />
  )
}

/** 'Kopieren': puts `text` on the clipboard. */
export function CopyButton({ text, label = t.copy, describedBy }: { text: string; label?: string; describedBy?: string }) {
  const toast = useToast()
  return (
    <button
      type="button"
      className={iconButtonClass}
      aria-describedby={describedBy}
      onClick={() => {
        navigator.clipboard
          .writeText(text)
          .then(() => toast({ tone: 'success', message: t.copied, durationMs: 2000 }))
          .catch(() => toast({ tone: 'error', message: t.copyFailed }))
      }}
    >
      {label}
    </button>
  )
}

/** The microphone's signal as a line, drawn while `analyser` is there. */
export function Waveform({ analyser, active }: { analyser: AnalyserNode | null; active: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    const el = canvas.current
    if (!el || !analyser) return
    const context = el.getContext('2d')
    if (!context) return
    const data = new Uint8Array(analyser.fftSize)
    let frame = 0
    const draw = () => {
      frame = requestAnimationFrame(draw)
      const { width, height } = el
      context.clearRect(0, 0, width, height)
      context.lineWidth = 2
      context.strokeStyle = active ? '#0f766e' : '#94a3b8'
      context.beginPath()
      if (active) analyser.getByteTimeDomainData(data)
      else data.fill(128)
      const step = width / data.length
      for (let i = 0; i < data.length; i++) {
        const y = (data[i] / 255) * height
        if (i === 0) context.moveTo(0, y)
        else context.lineTo(i * step, y)
      }
      context.stroke()
    }
    draw()
    return () => cancelAnimationFrame(frame)
  }, [analyser, active])
  return <canvas ref={canvas} width={480} height={64} className="h-16 w-full rounded-md bg-slate-50" aria-hidden="true" data-testid="waveform" />
}

/** The live transcript as chat bubbles, in a panel that collapses. */
export function TranscriptPanel({ lines, buffer }: { lines: readonly TranscriptLine[]; buffer: string }) {
  const [expanded, setExpanded] = useState(true)
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = list.current
    if (el) el.scrollTop = el.scrollHeight
  }, [lines, buffer])
  return (
    <section aria-labelledby="transcript-kop" className="rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
      <div className="flex items-center justify-between border-b border-slate-100 px-4 py-2">
        <h2 id="transcript-kop" className="text-sm font-semibold text-slate-900">
          {t.transcript}
        </h2>
        <button type="button" className={iconButtonClass} aria-expanded={expanded} onClick={() => setExpanded((e) => !e)}>
          {expanded ? t.collapse : t.expand}
        </button>
      </div>
      <div
        ref={list}
        data-testid="transcript"
        style={{ height: expanded ? '25rem' : '10rem' }}
        className="space-y-2 overflow-y-auto px-4 py-3"
        aria-live="polite"
      >
        {lines.length === 0 && !buffer && <p className="text-sm text-slate-500">{t.emptyTranscript}</p>}
        {lines.map((line) => (
          <Bubble key={line.idx} clinician={line.speaker === 'zorgverlener'} text={line.sentence} />
        ))}
        {buffer && <Bubble clinician pending text={buffer} />}
      </div>
    </section>
  )
}

function Bubble({ clinician, text, pending = false }: { clinician: boolean; text: string; pending?: boolean }) {
  return (
    <div className={`flex ${clinician ? 'justify-start' : 'justify-end'}`} data-testid={pending ? 'bubble-pending' : 'bubble'} data-speaker={clinician ? 'zorgverlener' : 'patient'}>
      <p
        className={`max-w-[80%] rounded-2xl px-3 py-2 text-sm ${clinician ? 'rounded-bl-sm bg-brand-50 text-slate-900' : 'rounded-br-sm bg-slate-100 text-slate-900'} ${pending ? 'animate-pulse italic text-slate-600' : ''}`}
      >
        <span className="sr-only">{clinician ? `${t.clinician}: ` : `${t.otherSpeaker}: `}</span>
        {text}
      </p>
    </div>
  )
}
