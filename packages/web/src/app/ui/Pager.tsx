/** Previous/next through a paginated list, saying where in it the user is. */
import type { Page } from "../api/Types.ts"

export const Pager = (
  { page, label, onOffset }: { readonly page: Page; readonly label: string; readonly onOffset: (offset: number) => void }
) => {
  const first = page.total === 0 ? 0 : page.offset + 1
  const last = Math.min(page.total, page.offset + page.limit)
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" class="secondary" disabled={page.offset === 0} onClick={() => onOffset(Math.max(0, page.offset - page.limit))}>
        Previous page
      </button>
      <span>
        {first}–{last} of {page.total}
      </span>
      <button type="button" class="secondary" disabled={last >= page.total} onClick={() => onOffset(page.offset + page.limit)}>
        Next page
      </button>
    </nav>
  )
}
