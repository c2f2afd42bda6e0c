import { Checkbox, Field, Label, Textarea } from '@headlessui/react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useLocation, useMatches } from '@tanstack/react-router'
import { useEffect, useId, useRef, useState } from 'react'
import { Icon } from '@/components/Icon'
import { publicConfigQueryOptions } from '@/features/auth'
import { sendFeedback } from './api'
import { canSend, consultIdFrom, feedbackType, firstSegment, isTooLong, supportEmailOf } from './feedback'
import { useFeedbackPage } from './pageContext'
import { FEEDBACK_HINT_MS, FEEDBACK_SUCCESS_MS, FEEDBACK_THANKS_MS, feedbackRatings, feedbackTexts as t } from './texts'

type Phase = 'form' | 'sent' | 'thanks'

/**
 * The hint bubble: shown for 3.5 s each time a page asks for it (`showFeedbackHint`), unless the
 * panel is open; not for a hint asked before the widget was there.
 */
function useHint(open: boolean) {
  const { hints } = useFeedbackPage()
  const seen = useRef(hints)
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (hints === seen.current) return
    seen.current = hints
    if (open) return
    setShown(true)
    const timer = setTimeout(() => setShown(false), FEEDBACK_HINT_MS)
    return () => clearTimeout(timer)
  }, [hints, open])
  return shown && !open
}

/**
 * The floating feedback button on every signed-in page, with its panel; on a phone only its icon,
 * so it covers as little of the page as it can.
 */
export function FeedbackWidget() {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const hint = useHint(open)
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-30 flex flex-col items-end gap-3 sm:right-6 sm:bottom-6">
      {open && (
        <div className="pointer-events-auto">
          <FeedbackPanel id={panelId} />
        </div>
      )}
      {hint && (
        <p
          role="status"
          data-testid="feedback-hint"
          className="pointer-events-auto max-w-60 rounded-lg bg-slate-900 px-3 py-2 text-sm text-white shadow-lg"
        >
          {t.hint}
        </p>
      )}
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={open ? t.close : t.open}
        onClick={() => setOpen((shown) => !shown)}
        className="pointer-events-auto inline-flex items-center gap-2 rounded-full bg-brand-700 p-3 text-sm font-semibold text-white shadow-lg hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 sm:px-4"
      >
        <Icon name={open ? 'close' : 'chat'} className="size-5" />
        <span className="max-sm:sr-only">{open ? t.close : t.open}</span>
      </button>
    </div>
  )
}

function FeedbackPanel({ id }: { id: string }) {
  const location = useLocation()
  const matches = useMatches()
  const page = useFeedbackPage()
  const [text, setText] = useState('')
  const [rating, setRating] = useState<number | null>(null)
  const [anonymous, setAnonymous] = useState(false)
  const [phase, setPhase] = useState<Phase>('form')
  const send = useMutation({ mutationFn: sendFeedback })
  const supportEmail = supportEmailOf(useQuery(publicConfigQueryOptions()).data)

  // success state for 1.5 s, then the thanks message for 9 s, then an empty form again
  useEffect(() => {
    if (phase === 'form') return
    const timer = setTimeout(
      () => setPhase(phase === 'sent' ? 'thanks' : 'form'),
      phase === 'sent' ? FEEDBACK_SUCCESS_MS : FEEDBACK_THANKS_MS,
    )
    return () => clearTimeout(timer)
  }, [phase])

  const tooLong = isTooLong(text)
  const sendable = canSend(text) && !send.isPending
  const titleId = `${id}-title`
  const warningId = `${id}-warning`

  const submit = () => {
    if (!sendable) return
    const params = matches.at(-1)?.params as Record<string, unknown> | undefined
    send.mutate(
      {
        type: feedbackType(location.pathname),
        text,
        rating,
        anonymous,
        // the consult of the route (the hand-off page), else the one the page shows
        consultId: consultIdFrom(params) ?? page.consultId,
        consultType: firstSegment(location.pathname),
      },
      {
        onSuccess: () => {
          setText('')
          setRating(null)
          setAnonymous(false)
          setPhase('sent')
        },
      },
    )
  }

  return (
    <section
      id={id}
      role="dialog"
      aria-labelledby={titleId}
      className="w-[calc(100vw-2rem)] max-w-sm rounded-xl bg-white p-5 shadow-xl ring-1 ring-slate-200"
    >
      <h2 id={titleId} className="text-base font-semibold text-slate-900">
        {t.title}
      </h2>
      {phase === 'sent' ? (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm font-semibold text-emerald-700">
          <Icon name="checkCircle" className="size-6" />
          {t.sent}
        </p>
      ) : phase === 'thanks' ? (
        <p role="status" className="mt-4 text-sm text-slate-700">
          {t.thanks}
        </p>
      ) : (
        <form
          noValidate
          className="mt-2 space-y-4"
          onSubmit={(event) => {
            event.preventDefault()
            submit()
          }}
        >
          <p className="text-sm text-slate-600">{t.intro}</p>
          <Field>
            <Label className="block text-sm font-medium text-slate-900">{t.text}</Label>
            <Textarea
              value={text}
              onChange={(event) => setText(event.target.value)}
              rows={4}
              aria-describedby={tooLong ? warningId : undefined}
              invalid={tooLong}
              className="mt-2 block max-h-[300px] min-h-[50px] w-full resize-y rounded-md border-0 px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none data-invalid:ring-red-400"
            />
          </Field>
          {tooLong && (
            <p id={warningId} role="alert" className="flex gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
              <Icon name="warning" className="size-5 shrink-0 text-amber-500" />
              {t.tooLong(text.length, supportEmail)}
            </p>
          )}
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">{t.rating}</legend>
            <div className="mt-2 flex gap-2">
              {feedbackRatings.map((value) => (
                <label
                  key={value}
                  className="flex size-9 cursor-pointer items-center justify-center rounded-md text-sm font-semibold ring-1 ring-slate-300 has-checked:bg-brand-700 has-checked:text-white has-checked:ring-brand-700 has-focus-visible:outline-2 has-focus-visible:outline-brand-700"
                >
                  <input
                    type="radio"
                    name={`${id}-rating`}
                    value={value}
                    checked={rating === value}
                    onChange={() => setRating(value)}
                    aria-label={t.ratingLabel(value)}
                    className="sr-only"
                  />
                  <span aria-hidden="true">{value}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <Field className="flex items-center gap-2">
            <Checkbox
              checked={anonymous}
              onChange={setAnonymous}
              className="group flex size-4 items-center justify-center rounded-sm bg-white ring-1 ring-slate-400 data-checked:bg-brand-700 data-checked:ring-brand-700 data-focus:outline-2 data-focus:outline-offset-2 data-focus:outline-brand-700"
            >
              <svg viewBox="0 0 14 14" fill="none" className="size-3 stroke-white opacity-0 group-data-checked:opacity-100" aria-hidden="true">
                <path d="M3 8L6 11L11 3.5" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </Checkbox>
            <Label className="text-sm text-slate-900">{t.anonymous}</Label>
          </Field>
          {send.isError && (
            <p role="alert" className="text-sm text-red-700">
              {t.sendFailed}
            </p>
          )}
          <button
            type="submit"
            disabled={!sendable}
            className="w-full rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600 disabled:hover:bg-slate-300"
          >
            {send.isPending ? t.sending : t.send}
          </button>
        </form>
      )}
    </section>
  )
}
