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

/** What a paginated list is read from, and what it says when the page is empty. */
interface PagedProps<P extends Page, I> {
  /** The resource in the plural, as the list's label and its states name it. */
  readonly what: string
  readonly resource: { readonly data: P | undefined; readonly error: unknown }
  readonly itemsOf: (page: P) => ReadonlyArray<I>
  /** The page's offset, which the pager moves. */
  readonly offset: { value: number }
  readonly empty: ComponentChildren
}

/**
 * A paginated list read from the API, as `Listing` shows it, with the pager under the page's
 * items; the pager moves `offset`, from which the screen reads the page.
 */
export const PagedListing = <P extends Page,>(props: PagedProps<P, unknown> & {
  readonly children: (page: P) => ComponentChildren
}) => (
  <Listing what={props.what} resource={props.resource} itemsOf={props.itemsOf} empty={props.empty}>
    {(page) => (
      <>
        {props.children(page)}
        <Pager page={page} label={capitalised(props.what)} onOffset={(next) => (props.offset.value = next)} />
      </>
    )}
  </Listing>
)

/**
 * A paginated list of resources with a row each (an alert, an order): `PagedListing` with the rows
 * as a labelled list, keyed by the resource's id.
 */
export const PagedRows = <P extends Page, I extends { readonly id: string },>(props: PagedProps<P, I> & {
  readonly children: (item: I) => ComponentChildren
}) => (
  <PagedListing what={props.what} resource={props.resource} itemsOf={props.itemsOf} offset={props.offset} empty={props.empty}>
    {(page) => (
      <ul class="list" aria-label={capitalised(props.what)}>
        {props.itemsOf(page).map((item) => <li key={item.id} class="row">{props.children(item)}</li>)}
      </ul>
    )}
  </PagedListing>
)

const capitalised = (text: string) => text[0]!.toUpperCase() + text.slice(1)
