/**
 * Choosing a token: a button that names the field and the token chosen, opening a modal dialog
 * with a search box (symbol, name or contract address) and the network's tokens as a listbox, each
 * with the wallet's free balance beside it, held tokens first. The search box is a combobox: the
 * arrow keys move through the options, Enter chooses, Escape closes.
 */
import { useSignal } from "@preact/signals"
import type { InputHTMLAttributes } from "preact"
import { useId, useLayoutEffect, useRef } from "preact/hooks"
import type { Network } from "../api/Types.ts"
import { balanceText } from "../Amounts.ts"
import { matchesToken, tokensOn, tokensProblem } from "../Tokens.ts"
import type { Balances } from "./Balances.ts"

/** Why a search lists no token: the catalogue could not be read, the server lists none on the network, or none matches. */
const emptyReason = (network: Network, query: string): string => {
  if (tokensProblem.value !== null) {
    return `The server's token list could not be read: ${tokensProblem.value}. Reload the page to try again.`
  }
  if (tokensOn(network).length === 0) return `The server lists no token on ${network}.`
  return `No token on ${network} matches “${query}”.`
}

export const TokenPicker = (props: {
  /** The field's name ("Token in", "Token out"). */
  readonly label: string
  readonly value: string
  readonly network: Network
  readonly balances: Balances | undefined
  readonly onChange: (symbol: string) => void
}) => {
  const id = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const search = useRef<HTMLInputElement>(null)
  const query = useSignal("")
  const active = useSignal(0)
  const open = useSignal(false)

  const held = (symbol: string) => props.balances?.get(symbol)
  const options = tokensOn(props.network)
    .filter((entry) => matchesToken(entry, props.network, query.value))
    .toSorted((a, b) => (held(b.symbol)?.value ?? 0) - (held(a.symbol)?.value ?? 0))
  const activeIndex = Math.min(active.value, Math.max(0, options.length - 1))

  // A layout effect: the dialog opens and closes in the same frame as the render that changed
  // `open`, so the button never names the new token while the dialog is still showing.
  useLayoutEffect(() => {
    if (open.value) {
      dialog.current?.showModal()
      search.current?.focus()
    } else if (dialog.current?.open === true) dialog.current.close()
  }, [open.value])

  const choose = (symbol: string) => {
    open.value = false
    props.onChange(symbol)
  }

  const optionId = (symbol: string) => `${id}-option-${symbol}`
  const title = `Choose ${props.label.toLowerCase()}`
  return (
    <div class="field picker">
      <span class="label" id={`${id}-label`}>{props.label}</span>
      <button
        type="button"
        class="token-button"
        aria-haspopup="dialog"
        aria-label={`${props.label}: ${props.value}`}
        onClick={() => {
          query.value = ""
          active.value = 0
          open.value = true
        }}
      >
        <span class="symbol">{props.value}</span> <span aria-hidden="true">▾</span>
      </button>
      <dialog
        ref={dialog}
        class="token-dialog"
        aria-label={title}
        onClose={() => (open.value = false)}
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside its content) closes it.
          if (event.target === dialog.current) open.value = false
        }}
      >
        <div class="dialog-body">
          <header class="card-head">
            <h2>{title}</h2>
            <button type="button" class="secondary" onClick={() => (open.value = false)}>Close</button>
          </header>
          <label for={`${id}-search`} class="label">Search by symbol, name or address</label>
          {/* Spread: preact's types tie an input's combobox role to a `list` attribute this one does not use. */}
          <input
            ref={search}
            {...({
              id: `${id}-search`,
              type: "search",
              role: "combobox",
              "aria-expanded": true,
              "aria-controls": `${id}-list`,
              "aria-autocomplete": "list",
              "aria-activedescendant": options[activeIndex] === undefined ? undefined : optionId(options[activeIndex].symbol),
              autoComplete: "off",
              spellcheck: false,
              value: query.value,
              onInput: (event: Event) => {
                query.value = (event.currentTarget as HTMLInputElement).value
                active.value = 0
              },
              onKeyDown: (event: KeyboardEvent) => {
                if (event.key === "ArrowDown") {
                  event.preventDefault()
                  active.value = Math.min(activeIndex + 1, options.length - 1)
                } else if (event.key === "ArrowUp") {
                  event.preventDefault()
                  active.value = Math.max(activeIndex - 1, 0)
                } else if (event.key === "Enter") {
                  event.preventDefault()
                  const picked = options[activeIndex]
                  if (picked !== undefined) choose(picked.symbol)
                }
              }
            } as unknown as InputHTMLAttributes<HTMLInputElement>)}
          />
          {options.length === 0
            ? (
              <p id={`${id}-list`} class="state empty" role="status">
                {emptyReason(props.network, query.value)}
              </p>
            )
            : (
              <ul id={`${id}-list`} role="listbox" aria-label={`Tokens on ${props.network}`} class="token-list">
                {options.map((entry, index) => {
                  const balance = held(entry.symbol)
                  const amount = props.balances === undefined ? "" : balanceText(balance?.free ?? 0n, entry.decimals)
                  return (
                    <li
                      key={entry.symbol}
                      id={optionId(entry.symbol)}
                      role="option"
                      aria-selected={entry.symbol === props.value}
                      class={index === activeIndex ? "active" : undefined}
                      onClick={() => choose(entry.symbol)}
                      onMouseMove={() => (active.value = index)}
                    >
                      <span class="token-name">
                        <strong>{entry.symbol}</strong> <span class="muted">{entry.name}</span>
                      </span>
                      {amount === "" ? null : <span class="num">{amount}</span>}
                    </li>
                  )
                })}
              </ul>
            )}
        </div>
      </dialog>
    </div>
  )
}
