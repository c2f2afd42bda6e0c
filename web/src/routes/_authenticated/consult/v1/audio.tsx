import { createFileRoute } from '@tanstack/react-router'
import { ConsultPage } from '@/features/consult/ConsultPage'

/**
 * /consult/v1/audio (Home's 'Gesproken consult'): the classic consult, SOEP only, recorded or typed
 * and summarised by the summary calls (normal precision `v2-turbo`, high `v1` with the episodes).
 */
export const Route = createFileRoute('/_authenticated/consult/v1/audio')({
  component: function ClassicConsult() {
    return <ConsultPage model="generic" template="soap" flavour="normal" routing="classic" />
  },
})
