import { primaryButtonClass, secondaryButtonClass } from '@/components/buttonStyles'
import { Waveform } from './components'
import type { ConsultState } from './consultSession'
import { consultTexts as t } from './texts'
import { clock, useRecordingSeconds } from './useElapsed'

/**
 * The running session: the waveform, the recording clock and what the microphone does (all only
 * while listening), Opnieuw, pause, and Samenvatten.
 */
export function LiveControls({
  session,
  typing,
  onReset,
  onTogglePause,
  onSummarize,
}: {
  session: ConsultState
  typing: boolean
  onReset: () => void
  onTogglePause: () => void
  onSummarize: () => void
}) {
  const { analyser, engine, generation, mic, recording, status, summary } = session
  const seconds = useRecordingSeconds(recording && !typing, generation)
  return (
    <section className="mt-6 space-y-3">
      {!typing && <Waveform analyser={analyser} active={recording && status?.kind === 'ready'} />}
      <div className="flex flex-wrap items-center gap-3">
        {!typing && (
          <span className="font-mono text-sm text-slate-700" aria-label={t.recordingTime}>
            {clock(seconds)}
          </span>
        )}
        {!typing && (
          <span className="text-sm text-slate-600" role="status">
            {status?.kind === 'connecting' || engine === undefined
              ? t.connecting
              : mic === 'asking'
                ? t.openingMicrophone
                : recording
                  ? t.recording
                  : t.paused}
          </span>
        )}
        <button type="button" className={secondaryButtonClass} onClick={onReset}>
          {t.restart}
        </button>
        {!typing && (
          <button type="button" className={secondaryButtonClass} onClick={onTogglePause} disabled={status?.kind === 'closed' || mic !== 'on'}>
            {recording ? t.pause : t.start}
          </button>
        )}
        <button type="button" className={primaryButtonClass} onClick={onSummarize} disabled={summary.pending !== null}>
          {t.summarize}
        </button>
      </div>
    </section>
  )
}
