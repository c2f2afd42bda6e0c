import { createFileRoute } from '@tanstack/react-router'
import { EConsultPage } from '@/features/consult/EConsultPage'

/** /consult/v1/econsult (Home's 'E-consult'): a patient's written question summarised, with a draft reply. */
export const Route = createFileRoute('/_authenticated/consult/v1/econsult')({
  component: EConsultPage,
})
