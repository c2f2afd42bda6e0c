import { createFileRoute } from '@tanstack/react-router'
import { ConsultRoute } from '@/features/consult/ConsultRoute'

/** /audioconsult/:model/:template/:flavour: a live consult with a flavour (e.g. poh-ggz). */
export const Route = createFileRoute('/_authenticated/audioconsult/$model/$template/$flavour')({
  component: function AudioConsultFlavour() {
    const { model, template, flavour } = Route.useParams()
    return <ConsultRoute model={model} template={template} flavour={flavour} />
  },
})
