import { createFileRoute, redirect } from '@tanstack/react-router'

/**
 * The identity provider's return address. The sign-in provider handles the answer and moves on
 * before the router starts, so arriving here otherwise only leads home.
 */
export const Route = createFileRoute('/auth/callback')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true })
  },
})
