import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '@/features/errors/NotFoundPage'

/**
 * /consult/v1 and below other than its two pages (`audio`, `econsult`): not found, signed in.
 * Named here so `/consult/v1` is never taken for the public hand-off page `/consult/{consultId}`.
 */
export const Route = createFileRoute('/_authenticated/consult/v1/$')({
  component: NotFoundPage,
})
