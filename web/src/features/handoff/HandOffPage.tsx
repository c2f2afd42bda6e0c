import { useQuery } from '@tanstack/react-query'
import { useRef } from 'react'
import { ApiError } from '@/api/client'
import { primaryButtonClass } from '@/components/buttonStyles'
import { FullPageMessage, publicConfigQueryOptions } from '@/features/auth'
import { handOffQueryOptions } from './api'
import { handOffTarget, useAutoSubmitOnce } from './autoSubmit'
import { DEFAULT_RECORD_SYSTEM_NAME, handOffTexts as t } from './texts'

/** The form's single field, as the record system reads it. */
export const HAND_OFF_FIELD = 'bricks-data'

/**
 * /consult/{consultId} (public, no sign-in): reads a hand-off and posts its note to the record
 * system with a hidden form, once, 300 ms after the data arrived.
 */
export function HandOffPage({ consultId }: { consultId: string }) {
  const config = useQuery(publicConfigQueryOptions())
  const recordSystem = config.data?.recordSystemName || DEFAULT_RECORD_SYSTEM_NAME
  const handOff = useQuery(handOffQueryOptions(consultId))
  const target = handOffTarget(handOff.data)
  const form = useRef<HTMLFormElement>(null)
  useAutoSubmitOnce(target, () => form.current?.submit())

  const movedOn = <p>{t.movedOn(recordSystem)}</p>

  if (handOff.isPending || target) {
    return (
      <FullPageMessage title={t.opening} busy>
        {movedOn}
        {target && (
          <form ref={form} method="post" action={target.redirectUrl} hidden>
            <input type="hidden" name={HAND_OFF_FIELD} value={target.data} />
          </form>
        )}
      </FullPageMessage>
    )
  }

  const expired = handOff.isSuccess || (handOff.error instanceof ApiError && handOff.error.status === 404)
  if (expired) {
    return (
      <FullPageMessage title={t.expired(recordSystem)}>
        {movedOn}
      </FullPageMessage>
    )
  }

  return (
    <FullPageMessage title={t.failed}>
      {movedOn}
      <button type="button" onClick={() => void handOff.refetch()} className={`mt-6 ${primaryButtonClass}`}>
        {t.retry}
      </button>
    </FullPageMessage>
  )
}
