import { createFileRoute } from '@tanstack/react-router'
import { ConsultRoute } from '@/features/consult/ConsultRoute'

/** /audioconsult/:model/:template: a live consult with the template's normal flavour. */
export const Route = createFileRoute('/_authenticated/audioconsult/$model/$template/')({
  component: function AudioConsult() {
    const { model, template } = Route.useParams()
    return <ConsultRoute model={model} template={template} flavour="normal" />
  },
})
