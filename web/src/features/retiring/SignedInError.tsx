import type { ErrorComponentProps } from '@tanstack/react-router'
import { ErrorPage } from '@/features/errors'
import { RenewedScreen } from './RenewedScreen'
import { EnvironmentRenewed } from './retiring'

/** What the signed-in routes show when their guard stops them: the renewed screen, or the error page. */
export function SignedInError(props: ErrorComponentProps) {
  if (props.error instanceof EnvironmentRenewed) return <RenewedScreen url={props.error.url} />
  return <ErrorPage {...props} />
}
