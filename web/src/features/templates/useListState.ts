import { useState } from 'react'
import { useDebouncedValue } from '@/lib/useDebouncedValue'
import type { ListFilter } from './api'
import { SEARCH_DEBOUNCE_MS } from './constants'

/** The search box, the 'Eigen templates' toggle and the page of one template list. */
export function useListState() {
  const [typed, setTyped] = useState('')
  const [own, setOwn] = useState(false)
  const query = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS)
  const filter: ListFilter = { query, own }
  // the page belongs to the filter it was chosen for: another search starts at the first page
  const key = JSON.stringify([query.trim(), own])
  const [page, setPage] = useState({ key, offset: 0 })
  const offset = page.key === key ? page.offset : 0
  return {
    typed,
    setTyped,
    own,
    setOwn,
    filter,
    offset,
    setOffset: (next: number) => setPage({ key, offset: next }),
  }
}
