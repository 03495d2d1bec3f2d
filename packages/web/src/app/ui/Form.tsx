/**
 * A form that stays on the page: submitting it (a button, or Enter in a field) runs `onSubmit`
 * instead of the browser's navigation. Laid out as a column of fields (`stack`, the default) or a
 * row of filters (`toolbar`); a filter toolbar applies as its fields change and needs no handler.
 */
import type { ComponentChildren } from "preact"

export const Form = (props: {
  /** The form's accessible name. */
  readonly label: string
  readonly layout?: "stack" | "toolbar"
  readonly role?: "search"
  readonly onSubmit?: () => unknown
  readonly children: ComponentChildren
}) => (
  <form
    class={props.layout ?? "stack"}
    role={props.role}
    aria-label={props.label}
    onSubmit={(event) => {
      event.preventDefault()
      void props.onSubmit?.()
    }}
  >
    {props.children}
  </form>
)
