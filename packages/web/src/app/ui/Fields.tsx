/** Labelled form controls: every control carries a visible label in the domain's words. */
import type { ComponentChildren, InputHTMLAttributes } from "preact"
import { useId } from "preact/hooks"

export const TextField = (props: {
  readonly label: string
  readonly value: string
  readonly onInput: (value: string) => void
  readonly type?: "text" | "password" | "email" | "url" | "datetime-local" | undefined
  readonly placeholder?: string | undefined
  readonly required?: boolean | undefined
  readonly list?: string | undefined
  readonly inputMode?: "decimal" | "numeric" | "text" | "email" | "url" | undefined
  readonly autoComplete?: string | undefined
  readonly hint?: string | undefined
  /** Why the value cannot be sent: shown beside the field, which is then marked invalid. */
  readonly problem?: string | null | undefined
  /** Shown under the input (a balance line, a Max button). */
  readonly extra?: ComponentChildren
}) => {
  const id = useId()
  const described = [
    props.hint === undefined ? null : `${id}-hint`,
    props.problem === undefined || props.problem === null ? null : `${id}-problem`
  ].filter((part) => part !== null).join(" ")
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {/* Spread: the input's attribute types split by `type`, and this one field serves several. */}
      <input
        {...({
          id,
          type: props.type ?? "text",
          value: props.value,
          placeholder: props.placeholder,
          required: props.required,
          list: props.list,
          inputMode: props.inputMode,
          autoComplete: props.autoComplete ?? "off",
          spellcheck: false,
          "aria-describedby": described === "" ? undefined : described,
          "aria-invalid": props.problem === undefined || props.problem === null ? undefined : true,
          onInput: (event: Event) => props.onInput((event.currentTarget as HTMLInputElement).value)
        } as InputHTMLAttributes<HTMLInputElement>)}
      />
      {props.extra}
      {props.problem === undefined || props.problem === null ? null : (
        <small id={`${id}-problem`} class="field-problem">{props.problem}</small>
      )}
      {props.hint === undefined ? null : <small id={`${id}-hint`}>{props.hint}</small>}
    </div>
  )
}

export const SelectField = <T extends string>(props: {
  readonly label: string
  readonly value: T
  readonly options: ReadonlyArray<T | readonly [T, string]>
  readonly onChange: (value: T) => void
}) => {
  const id = useId()
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value as T)}>
        {props.options.map((option) => {
          const [value, text] = typeof option === "string" ? [option, option] : option
          return <option key={value} value={value}>{text}</option>
        })}
      </select>
    </div>
  )
}

export const Checkbox = (
  props: { readonly label: string; readonly checked: boolean; readonly onChange: (checked: boolean) => void }
) => (
  <label class="check">
    <input
      type="checkbox"
      checked={props.checked}
      onChange={(event) => props.onChange((event.currentTarget as HTMLInputElement).checked)}
    />
    {props.label}
  </label>
)

/** `list` with `item` chosen (`on`, last) or left out. */
const toggle = <T,>(list: ReadonlyArray<T>, item: T, on: boolean) =>
  on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item)

/** A choice of any number of `options` (scopes, webhook events), as a labelled group of checkboxes. */
export const CheckboxGroup = <T extends string>(props: {
  readonly legend: string
  readonly options: ReadonlyArray<T>
  readonly chosen: ReadonlyArray<T>
  readonly onChange: (chosen: ReadonlyArray<T>) => void
}) => (
  <fieldset>
    <legend>{props.legend}</legend>
    {props.options.map((option) => (
      <Checkbox key={option} label={option} checked={props.chosen.includes(option)} onChange={(on) => props.onChange(toggle(props.chosen, option, on))} />
    ))}
  </fieldset>
)

/** A row of exclusive choices (timeframes, ranges) as toggle buttons in a labelled group. */
export const Segmented = <T extends string>(props: {
  readonly label: string
  readonly value: T
  readonly options: ReadonlyArray<T>
  readonly onChange: (value: T) => void
}) => (
  <div class="segmented" role="group" aria-label={props.label}>
    {props.options.map((option) => (
      <button
        type="button"
        key={option}
        aria-pressed={option === props.value}
        onClick={() => props.onChange(option)}
      >
        {option}
      </button>
    ))}
  </div>
)

export const Section = (
  { title, children, actions }: { readonly title: string; readonly children: ComponentChildren; readonly actions?: ComponentChildren }
) => {
  const id = useId()
  return (
    <section class="card" aria-labelledby={id}>
      <header class="card-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  )
}

/** A figure and its name, for the stat grids. */
export const Stat = (
  { label, value, tone }: { readonly label: string; readonly value: ComponentChildren; readonly tone?: "up" | "down" }
) => (
  <div class="stat">
    <dt>{label}</dt>
    <dd class={tone}>{value}</dd>
  </div>
)

/** A table that may scroll sideways on a narrow screen: focusable and named, so a keyboard can scroll it. */
export const TableScroller = ({ label, children }: { readonly label: string; readonly children: ComponentChildren }) => (
  <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
    {children}
  </div>
)
