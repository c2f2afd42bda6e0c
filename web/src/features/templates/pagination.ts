import { paginationTexts as t } from './texts'
import { PAGE_SIZE } from './constants'

/** The label under a list: x = offset + 1, y = offset + rows, z = count; no results says so. */
export function paginationLabel(offset: number, rows: number, count: number): string {
  if (count <= 0) return t.none
  if (rows <= 0) return t.emptyPage(count)
  return t.range(offset + 1, offset + rows, count)
}

/** An offset that lies within the list: after the last row of the last page was deleted, the page before. */
export function clampOffset(offset: number, count: number | undefined, pageSize = PAGE_SIZE): number {
  if (count === undefined || offset < count) return Math.max(0, offset)
  if (count <= 0) return 0
  return Math.floor((count - 1) / pageSize) * pageSize
}

export const hasPrevious = (offset: number) => offset > 0
export const hasNext = (offset: number, rows: number, count: number) => offset + rows < count
