/** Previous/next through a paginated list, saying where in it the user is. */
import type { ComponentChildren } from "preact"
import type { Page } from "../api/Types.ts"
import { Listing } from "./States.tsx"

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

/**
 * A paginated list read from the API, as `Listing` shows it, with the pager under the page's
 * items; the pager moves `offset`, from which the screen reads the page.
 */
export const PagedListing = <P extends Page,>(props: {
  readonly what: string
  readonly resource: { readonly data: P | undefined; readonly error: unknown }
  readonly itemsOf: (page: P) => ReadonlyArray<unknown>
  readonly offset: { value: number }
  readonly empty: ComponentChildren
  readonly children: (page: P) => ComponentChildren
}) => (
  <Listing what={props.what} resource={props.resource} itemsOf={props.itemsOf} empty={props.empty}>
    {(page) => (
      <>
        {props.children(page)}
        <Pager page={page} label={props.what[0]!.toUpperCase() + props.what.slice(1)} onOffset={(next) => (props.offset.value = next)} />
      </>
    )}
  </Listing>
)
