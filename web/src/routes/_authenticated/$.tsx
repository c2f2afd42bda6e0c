import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '@/features/errors/NotFoundPage'

/** Any other address, for a signed-in user: the Dutch not-found page inside the application's frame. */
export const Route = createFileRoute('/_authenticated/$')({
  component: NotFoundPage,
})
