/**
 * The simulator's control panel, shown only when `GET /v1/health` says the server runs on the
 * simulator: the market clock (now, mode, and advancing it when it is manual), a token's price, a whale swap, a network
 * fault, the approval of trades that wait for the wallet, the notification outbox and the event
 * log (each entry's data in full, pretty-printed, in a scrolling list). It calls the `/v1/sim` routes, which take no account key: on a loopback server they need
 * none, off loopback the simulator's control key (`SIM_CONTROL_KEY`), which the user enters once per
 * tab and which is kept in `sessionStorage` like the API key.
 */
import { useSignal } from "@preact/signals"
import { ApiError, call, controlKey, get } from "../api/Api.ts"
import { type Network, networks, type OutboxItem, type Page, type SimEvent, type Trade } from "../api/Types.ts"
import { clockMode } from "../Clock.ts"
import { time } from "../Format.ts"
import { usePoll } from "../Live.ts"
import { setControlKey } from "../Session.ts"
import { Amount } from "../ui/Amount.tsx"
import { Section, SelectField, TextField } from "../ui/Fields.tsx"
import { Form } from "../ui/Form.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, ErrorBox, Listing, Loading, Notice } from "../ui/States.tsx"
import { awaitsApproval, decideApproval } from "./SwapScreen.tsx"

const sim = { control: true } as const

/** A call to a control route that sends `body`, with the control key. */
const control = <T,>(method: string, path: string, body: unknown) => call<T>(method, path, { ...sim, body })
const EVENTS_SHOWN = 50

/** A form that runs one control call, then says what happened or shows the error. */
const Control = (
  { title, label, run, children }: {
    readonly title: string
    readonly label: string
    readonly run: () => Promise<string>
    readonly children: preact.ComponentChildren
  }
) => {
  const done = useSignal<string | null>(null)
  const error = useSignal<unknown>(null)
  return (
    <Section title={title}>
      <Form
        label={title}
        onSubmit={async () => {
          done.value = null
          error.value = null
          try {
            done.value = await run()
          } catch (failure) {
            error.value = failure
          }
        }}
      >
        {children}
        <button type="submit">{label}</button>
      </Form>
      <ErrorBox error={error.value} />
      {done.value === null ? null : <Notice>{done.value}</Notice>}
    </Section>
  )
}

/** Whether a control call was refused for want of the control key. */
const needsControlKey = (error: unknown): boolean => error instanceof ApiError && error.status === 401

/**
 * The simulator's control key: asked for when the server refuses a control call (it listens off
 * loopback), kept for the tab once entered, and forgotten on request.
 */
const ControlKey = ({ refused }: { readonly refused: boolean }) => {
  const entered = useSignal("")
  if (controlKey.value !== null) {
    return (
      <Section title="Control key">
        <p>
          The simulator's control routes are called with the control key kept for this tab.{" "}
          {refused ? <strong>The server refused it: enter the right one.</strong> : null}
        </p>
        <button type="button" class="secondary" onClick={() => setControlKey(null)}>Forget control key</button>
      </Section>
    )
  }
  if (!refused) return null
  return (
    <Section title="Control key">
      <Form
        label="Control key"
        onSubmit={() => {
          if (entered.value.trim() !== "") setControlKey(entered.value.trim())
          entered.value = ""
        }}
      >
        <p>
          This server listens beyond this machine, so its control routes take the key it printed at start
          (<code>SIM_CONTROL_KEY</code>). It is kept for this tab only.
        </p>
        <TextField label="Simulator control key" type="password" value={entered.value} onInput={(value) => (entered.value = value)} required />
        <button type="submit">Use control key</button>
      </Form>
    </Section>
  )
}

const units = [["1000", "seconds"], ["60000", "minutes"], ["3600000", "hours"], ["86400000", "days"]] as const
type Unit = (typeof units)[number][0]

export const SimulatorScreen = () => {
  const clock = useResource<{ readonly now: string; readonly mode: "realtime" | "manual" }>()
  const amount = useSignal("1")
  const unit = useSignal<Unit>("60000")
  const priceToken = useSignal("SOL")
  const price = useSignal("")
  const whaleToken = useSignal("SOL")
  const whaleNetwork = useSignal<Network>("solana")
  const whaleValue = useSignal("2500000")
  const faultNetwork = useSignal<Network>("ethereum")
  const faultKind = useSignal<"outage" | "congestion" | "gas_spike">("congestion")
  const faultMinutes = useSignal("5")
  const waiting = useResource<ReadonlyArray<Trade>>()
  const approvalError = useSignal<unknown>(null)
  const outbox = useResource<ReadonlyArray<OutboxItem>>()
  const events = useSignal<ReadonlyArray<SimEvent>>([])
  const eventsError = useSignal<unknown>(null)
  const after = useSignal(0)

  // Read again at once when the control key changes, not at the next poll.
  usePoll(async () => {
    await clock.load(() => get("/sim/clock", undefined, sim))
    if (clock.data !== undefined) clockMode.value = clock.data.mode
  }, 2_000, [controlKey.value])

  usePoll(
    () =>
      waiting.load(async () => {
        const page = await get<Page & { readonly trades: ReadonlyArray<Trade> }>("/trades", { status: "pending", limit: 100 })
        return page.trades.filter(awaitsApproval)
      }),
    5_000,
    []
  )

  usePoll(
    () =>
      outbox.load(async () => {
        const data = await get<{ readonly notifications: ReadonlyArray<OutboxItem> }>("/sim/outbox", undefined, sim)
        return data.notifications.slice(-20).toReversed()
      }),
    5_000,
    []
  )

  // The log is read from the last seq seen on; the panel keeps the newest entries.
  usePoll(async () => {
    try {
      const data = await get<{ readonly events: ReadonlyArray<SimEvent> }>("/sim/events", { after: after.value, limit: 1000 }, sim)
      const fresh = data.events.filter((event) => event.seq > after.value)
      if (fresh.length > 0) {
        after.value = fresh.at(-1)!.seq
        events.value = [...fresh.slice(-EVENTS_SHOWN).toReversed(), ...events.value].slice(0, EVENTS_SHOWN)
      }
      eventsError.value = null
    } catch (failure) {
      eventsError.value = failure
    }
  }, 3_000, [])

  const advance = async () => {
    const ms = Math.round(Number(amount.value) * Number(unit.value))
    const answer = await control<{ readonly now: string }>("POST", "/sim/clock/advance", { ms })
    await clock.load(() => get("/sim/clock", undefined, sim))
    return `The market clock is now ${time(answer.data.now)}.`
  }

  const decide = async (trade: Trade, approve: boolean) => {
    approvalError.value = null
    try {
      await decideApproval(trade.id, approve)
    } catch (failure) {
      approvalError.value = failure
    }
    await waiting.load(async () => {
      const page = await get<Page & { readonly trades: ReadonlyArray<Trade> }>("/trades", { status: "pending", limit: 100 })
      return page.trades.filter(awaitsApproval)
    })
  }

  return (
    <div class="screen">
      <h1>Simulator</h1>
      <ControlKey refused={needsControlKey(clock.error)} />
      <div class="grid">
        <Section title="Market clock">
          <ErrorBox error={clock.error} />
          {clock.data === undefined ? (clock.error === null ? <Loading what="clock" /> : null) : (
            <p class="clock" aria-live="polite">
              <strong>{time(clock.data.now)}</strong> <span class="badge">{clock.data.mode}</span>
            </p>
          )}
          {clock.data?.mode === "realtime"
            ? (
              <p class="muted">
                This clock runs in real time, so it cannot be advanced. To step market time by hand, start the server on a
                scenario whose clock is manual (<code>"clock": {"{"} "mode": "manual" {"}"}</code>).
              </p>
            )
            : clock.data === undefined
            ? null
            : (
              <Control title="Advance the clock" label="Advance" run={advance}>
                <div class="inline">
                  <TextField label="Advance by" value={amount.value} onInput={(value) => (amount.value = value)} inputMode="decimal" />
                  <SelectField label="Unit" value={unit.value} options={units} onChange={(value) => (unit.value = value)} />
                </div>
              </Control>
            )}
        </Section>
        <Control
          title="Move a price"
          label="Set price"
          run={async () => {
            const token = priceToken.value.trim()
            await control("PUT", `/sim/prices/${encodeURIComponent(token)}`, { price: Number(price.value) })
            return `${token} now trades at ${price.value} USD.`
          }}
        >
          <TextField label="Price token" value={priceToken.value} onInput={(value) => (priceToken.value = value)} list="known-tokens" />
          <TextField label="New price (USD)" value={price.value} onInput={(value) => (price.value = value)} inputMode="decimal" required />
        </Control>
        <Control
          title="Whale swap"
          label="Make a whale swap"
          run={async () => {
            await control("POST", "/sim/whales", { token: whaleToken.value.trim(), network: whaleNetwork.value, valueUsd: Number(whaleValue.value) })
            return `A ${whaleValue.value} USD swap of ${whaleToken.value} happened on ${whaleNetwork.value}.`
          }}
        >
          <TextField label="Whale token" value={whaleToken.value} onInput={(value) => (whaleToken.value = value)} list="known-tokens" />
          <SelectField label="Whale network" value={whaleNetwork.value} options={networks} onChange={(value) => (whaleNetwork.value = value)} />
          <TextField label="Value (USD)" value={whaleValue.value} onInput={(value) => (whaleValue.value = value)} inputMode="decimal" />
        </Control>
        <Control
          title="Network fault"
          label="Start fault"
          run={async () => {
            await control("POST", "/sim/faults", { network: faultNetwork.value, kind: faultKind.value, durationMs: Math.round(Number(faultMinutes.value) * 60_000) })
            return `${faultKind.value} on ${faultNetwork.value} for ${faultMinutes.value} minutes of market time.`
          }}
        >
          <SelectField label="Fault network" value={faultNetwork.value} options={networks} onChange={(value) => (faultNetwork.value = value)} />
          <SelectField
            label="Fault kind"
            value={faultKind.value}
            options={[["outage", "Outage"], ["congestion", "Congestion"], ["gas_spike", "Gas spike"]]}
            onChange={(value) => (faultKind.value = value)}
          />
          <TextField label="Duration (minutes)" value={faultMinutes.value} onInput={(value) => (faultMinutes.value = value)} inputMode="decimal" />
        </Control>
      </div>
      <Section title="Trades awaiting approval">
        <ErrorBox error={approvalError.value} />
        <Listing what="pending trades" resource={waiting} itemsOf={(trades) => trades} empty={<Empty>No trade of this account waits for its wallet.</Empty>}>
          {(trades) => (
            <ul class="list" aria-label="Trades awaiting approval">
              {trades.map((trade) => (
                <li key={trade.id} class="row">
                  <span>
                    <code>{trade.id}</code> <Amount value={trade.amountIn} symbol={trade.tokenIn} /> → {trade.tokenOut} on {trade.network}
                  </span>
                  <span class="actions">
                    <button type="button" aria-label={`Approve trade ${trade.id}`} onClick={() => void decide(trade, true)}>Approve</button>
                    <button type="button" class="danger" aria-label={`Reject trade ${trade.id}`} onClick={() => void decide(trade, false)}>Reject</button>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Listing>
      </Section>
      <div class="columns">
        <Section title="Outbox">
          <Listing what="outbox" resource={outbox} itemsOf={(items) => items} empty={<Empty>No notification sent yet.</Empty>}>
            {(items) => (
              <ul class="list" aria-label="Notifications sent">
                {items.map((item, index) => (
                  <li key={item.seq ?? index}>
                    <small class="muted">{time(item.sentAt)} · {item.channel} to {item.to}</small>
                    <br />
                    {item.message}
                  </li>
                ))}
              </ul>
            )}
          </Listing>
        </Section>
        <Section title="Event log">
          <ErrorBox error={eventsError.value} />
          {events.value.length === 0 ? <Empty>No events yet.</Empty> : (
            // Scrolls on its own: focusable and named, so a keyboard can scroll it.
            <div class="log" tabIndex={0} role="region" aria-label="Event log entries">
              <ol class="list" aria-label="Events, newest first">
                {events.value.map((event) => (
                  <li key={event.seq}>
                    <small class="muted">#{event.seq} {time(event.at)}</small> <code>{event.type}</code>
                    <pre class="event-data">{JSON.stringify(event.data, null, 2)}</pre>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </Section>
      </div>
    </div>
  )
}
