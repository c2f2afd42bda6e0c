// The numbers of the template pages (specification §9). Kept apart from the components, so the
// routes' loaders and search checks can use them without pulling in a page.

/** Template toasts hide after one second. */
export const TEMPLATE_TOAST_MS = 1000

/** Rows per page of the template lists. */
export const PAGE_SIZE = 5

/** The longest search the api takes (it also takes at most 10 different words). */
export const SEARCH_MAX_LENGTH = 200

/** The search waits this long after the last key press. */
export const SEARCH_DEBOUNCE_MS = 250

/** Most entries the group page's search offers. */
export const ENTRY_SUGGESTIONS = 10

/** The tabs of /template, in order; the first is the default. */
export const templateTabs = ['regels', 'groepen'] as const
export type TemplateTab = (typeof templateTabs)[number]
