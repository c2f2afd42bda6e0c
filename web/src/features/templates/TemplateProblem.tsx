import { Link, useParams, type ErrorComponentProps } from '@tanstack/react-router'
import { ApiError } from '@/api/client'
import { primaryButtonClass } from '@/components/buttonStyles'
import { Icon } from '@/components/Icon'
import { ErrorPage } from '@/features/errors'
import { problemTexts as t } from './texts'

/** 'Template niet gevonden' (404, with the id) or 'Geen toegang tot template' (403), with 'Terug'. */
export function TemplateProblem({ status, id }: { status: 403 | 404; id: string }) {
  const notFound = status === 404
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-6 py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-600">
        <Icon name={notFound ? 'search' : 'lock'} className="size-6" />
      </span>
      <p className="mt-4 text-sm font-semibold text-brand-700">{status}</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">{notFound ? t.notFound : t.forbidden}</h1>
      <p className="mt-4 break-all text-slate-600">{notFound ? t.notFoundHelp(id) : t.forbiddenHelp}</p>
      <Link to="/template" className={`mt-8 ${primaryButtonClass}`}>
        {t.back}
      </Link>
    </div>
  )
}

/** The error screen of a template page: the api's 404 and 403 as such, anything else as the general error page. */
export function TemplateLoadError(props: ErrorComponentProps) {
  const params: { entryId?: string; groupId?: string } = useParams({ strict: false })
  const { error } = props
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
    return <TemplateProblem status={error.status} id={params.entryId ?? params.groupId ?? ''} />
  }
  return <ErrorPage {...props} />
}
