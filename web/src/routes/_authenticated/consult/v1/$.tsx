import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '@/features/errors/NotFoundPage'

/**
 * /consult/v1 and below: the first version's consult pages (Home's 'Gesproken consult' and
 * 'E-consult'), signed in and not part of this application yet. Named here so `/consult/v1` is
 * never taken for the public hand-off page `/consult/{consultId}`.
 */
export const Route = createFileRoute('/_authenticated/consult/v1/$')({
  component: NotFoundPage,
})
