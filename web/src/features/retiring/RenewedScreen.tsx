import { useEffect } from 'react'
import { FullPageMessage } from '@/features/auth'
import { RENEWED_REDIRECT_MS } from './retiring'
import { retiringTexts as t } from './texts'

function leaveFor(url: string) {
  window.location.assign(url)
}

/** 'Spreekkamer is vernieuwd' for a few seconds, then the browser goes to the new environment. */
export function RenewedScreen({ url, go = leaveFor }: { url: string; go?: (url: string) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => go(url), RENEWED_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [url, go])
  return (
    <FullPageMessage title={t.renewedTitle}>
      <p>{t.renewedHelp}</p>
      <a
        href={url}
        className="mt-6 inline-block rounded-md bg-emerald-700 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
      >
        {t.goThere}
      </a>
    </FullPageMessage>
  )
}
