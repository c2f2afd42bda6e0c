import { NotFoundPage } from '@/features/errors'
import { ConsultPage } from './ConsultPage'
import { isFlavour, isTemplate } from './result'

/** The route's segments checked: an unknown template or flavour is not found. */
export function ConsultRoute({ model, template, flavour }: { model: string; template: string; flavour: string }) {
  if (!isTemplate(template) || !isFlavour(flavour)) return <NotFoundPage />
  return <ConsultPage model={model} template={template} flavour={flavour} />
}
