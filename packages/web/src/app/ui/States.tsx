/**
 * The three states every screen can be in besides showing its data: loading, empty (with what to
 * do next), and an error that shows the API's code and message, as the envelope gave them.
 */
import type { ComponentChildren } from "preact"
import { ApiError } from "../api/Api.ts"

export const Loading = ({ what }: { readonly what: string }) => (
  <p class="state" role="status" aria-live="polite">
    Loading {what}…
  </p>
)

export const Empty = ({ children }: { readonly children: ComponentChildren }) => <p class="state empty">{children}</p>

export const ErrorBox = ({ error, title }: { readonly error: unknown; readonly title?: string }) => {
  if (error === null || error === undefined) return null
  const failure = error instanceof ApiError ? error : new ApiError(0, "CLIENT_ERROR", String(error))
  return (
    <div class="error" role="alert">
      <p>
        {title === undefined ? null : <strong>{title}: </strong>}
        <code>{failure.code}</code> {failure.message}
      </p>
      {failure.details.length === 0 ? null : (
        <ul>
          {failure.details.map((detail) => (
            <li key={detail.path + detail.message}>
              {detail.path === "" ? null : <code>{detail.path}</code>} {detail.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/**
 * A list read from the API, in the state it is in: the read's error when it failed (above the last
 * answer, if there was one), "Loading" until the first answer, `empty` when the answer lists
 * nothing, else what `children` makes of the answer.
 */
export const Listing = <T,>(props: {
  readonly what: string
  readonly resource: { readonly data: T | undefined; readonly error: unknown }
  readonly itemsOf: (data: T) => ReadonlyArray<unknown>
  readonly empty: ComponentChildren
  readonly children: (data: T) => ComponentChildren
}) => {
  const { data, error } = props.resource
  return (
    <>
      <ErrorBox error={error} />
      {data === undefined
        ? error === null ? <Loading what={props.what} /> : null
        : props.itemsOf(data).length === 0
        ? props.empty
        : props.children(data)}
    </>
  )
}

/** A confirmation the user should hear: announced politely by screen readers. */
export const Notice = ({ children }: { readonly children: ComponentChildren }) => (
  <p class="notice" role="status">
    {children}
  </p>
)

/** A resource's status (a trade's, an order's, an alert's, a delivery's), coloured by the stylesheet. */
export const StatusBadge = ({ status }: { readonly status: string }) => <span class={`badge ${status}`}>{status}</span>
