import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { z } from 'zod'
import { App } from '@/app/App'
import { createQueryClient } from '@/app/queryClient'
import './index.css'

// The api's Content-Security-Policy allows no eval: zod must not probe for it (its probe, a
// `Function('')` call, is refused and reported as a violation), nor compile parsers with it.
z.config({ jitless: true })

const queryClient = createQueryClient()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
