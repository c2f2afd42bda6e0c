import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react'
import { Icon } from '@/components/Icon'
import { faqItems, faqTexts } from './texts'

export function FaqPage() {
  return (
    <div className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{faqTexts.title}</h1>
      <p className="mt-2 text-slate-600">{faqTexts.intro}</p>

      <dl className="mt-8 divide-y divide-slate-200 rounded-xl bg-white shadow-xs ring-1 ring-slate-200">
        {faqItems.map((item) => (
          <Disclosure key={item.question} as="div" className="px-6 py-4">
            <dt>
              <DisclosureButton className="group flex w-full items-start justify-between gap-4 text-left font-medium text-slate-900">
                {item.question}
                <Icon name="chevronDown" className="mt-0.5 size-5 shrink-0 text-slate-400 transition group-data-open:rotate-180" />
              </DisclosureButton>
            </dt>
            <DisclosurePanel as="dd" className="mt-2 text-sm leading-6 text-slate-600">
              {item.answer}
            </DisclosurePanel>
          </Disclosure>
        ))}
      </dl>

      <p className="mt-8 text-sm text-slate-600">{faqTexts.more}</p>
    </div>
  )
}
