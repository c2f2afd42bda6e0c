import { describe, expect, it } from 'vitest'
import { stackedTable } from './stackedTable'

describe('stackedTable', () => {
  it('changes the table only below the md breakpoint', () => {
    for (const classes of Object.values(stackedTable)) {
      for (const name of classes.split(' ')) expect(name).toMatch(/^max-md:/)
    }
  })

  it('shows each cell under the name of its column, from data-label', () => {
    expect(stackedTable.cell).toContain('max-md:before:content-[attr(data-label)]')
    expect(stackedTable.head).toBe('max-md:sr-only')
  })
})
