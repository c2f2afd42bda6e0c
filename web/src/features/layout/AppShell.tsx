import { Outlet } from '@tanstack/react-router'
import { ToastProvider } from '@/components/Toast'
import { FeedbackWidget } from '@/features/feedback'
import { RetiringBanner } from '@/features/retiring'
import { NavBar } from './NavBar'

/** The frame of every page for signed-in users. */
export function AppShell() {
  return (
    <ToastProvider>
      <div className="min-h-full">
        <RetiringBanner />
        <NavBar />
        <main className="mx-auto max-w-7xl px-4 pt-8 pb-24 sm:px-6 lg:px-8">
          <Outlet />
        </main>
        <FeedbackWidget />
      </div>
    </ToastProvider>
  )
}
