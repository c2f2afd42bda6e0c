import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useState } from 'react'
import { Icon } from '@/components/Icon'
import type { TemplateEntry } from '../api'
import { soepTypeName, templateTexts as t } from '../texts'
import { CodeChips } from './CodeChips'

/** 'Template inhoud': a side panel with an entry's type, ICPC codes and text. */
export function PreviewPanel({ entry: current, onClose }: { entry: TemplateEntry | null; onClose: () => void }) {
  // the entry stays on screen while the panel slides away
  const [entry, setEntry] = useState(current)
  if (current && current !== entry) setEntry(current)
  return (
    <Dialog open={current !== null} onClose={onClose} className="fixed inset-0 z-40">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/30 transition-opacity duration-200 data-closed:opacity-0" />
      <div className="fixed inset-0 overflow-hidden">
        <div className="pointer-events-none fixed inset-y-0 right-0 flex max-w-full pl-10">
          <DialogPanel
            transition
            className="pointer-events-auto flex w-screen max-w-md flex-col bg-white shadow-xl transition duration-200 ease-out data-closed:translate-x-full"
          >
            <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-5">
              <DialogTitle className="text-lg font-semibold text-slate-900">{t.previewTitle}</DialogTitle>
              <button
                type="button"
                onClick={onClose}
                className="rounded-md p-1 text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                <span className="sr-only">{t.close}</span>
                <Icon name="close" className="size-6" />
              </button>
            </div>
            {entry && (
              <div className="flex-1 overflow-y-auto px-6 py-5">
                <p className="text-base font-medium text-slate-900">{entry.title || t.untitled}</p>
                {entry.description && <p className="mt-1 text-sm text-slate-600">{entry.description}</p>}
                <dl className="mt-6 space-y-5 text-sm">
                  <div>
                    <dt className="font-medium text-slate-900">{t.type}</dt>
                    <dd className="mt-1 text-slate-700">{soepTypeName(entry.soepType)}</dd>
                  </div>
                  <div>
                    <dt className="font-medium text-slate-900">{t.codes}</dt>
                    <dd className="mt-1">
                      <CodeChips codes={entry.codes} />
                    </dd>
                  </div>
                  <div>
                    <dt className="font-medium text-slate-900">{t.text}</dt>
                    <dd className="mt-1 whitespace-pre-wrap text-slate-700">
                      {entry.text || <span className="text-slate-500">{t.noText}</span>}
                    </dd>
                  </div>
                </dl>
              </div>
            )}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  )
}
