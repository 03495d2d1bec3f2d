/**
 * Pagination and the one list order every collection shares: newest first, then id descending,
 * so a page boundary never moves while records are only appended.
 */
export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

export interface Page<A> {
  readonly total: number
  readonly limit: number
  readonly offset: number
  readonly items: ReadonlyArray<A>
}

export const newestFirst = <A extends { readonly createdAt: number; readonly id: string }>(a: A, b: A): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/** Filters, orders newest first, and cuts one page. */
export const paginate = <A extends { readonly createdAt: number; readonly id: string }>(
  records: Iterable<A>,
  keep: (record: A) => boolean,
  page: PageRequest
): Page<A> => {
  const matching = Array.from(records).filter(keep).sort(newestFirst)
  return {
    total: matching.length,
    limit: page.limit,
    offset: page.offset,
    items: matching.slice(page.offset, page.offset + page.limit)
  }
}
