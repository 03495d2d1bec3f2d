/**
 * Alerts: create each of the four types with its own fields, list them by status (and type),
 * disable, re-arm and delete them. The Free plan's limit is counted against only where it applies:
 * for a key known to be on Free (KeyInUse.ts); a Pro key sees no counter, and a key whose plan is
 * unknown sees its count and the rule, never a limit claimed as its own. Where the server serves
 * notification settings, they are edited here too. The list refreshes on its own, so an alert
 * that fires shows as triggered.
 */
import { useSignal } from "@preact/signals"
import { ApiError, call, get } from "../api/Api.ts"
import type { Alert, AlertStatus, AlertType, Channel, Page } from "../api/Types.ts"
import { time } from "../Format.ts"
import { learnPlan, planInUse } from "../KeyInUse.ts"
import { usePoll } from "../Live.ts"
import { serves } from "../Session.ts"
import { Section, SelectField, TextField } from "../ui/Fields.tsx"
import { Form } from "../ui/Form.tsx"
import { PagedRows } from "../ui/Pager.tsx"
import { useResource } from "../ui/Resource.ts"
import { Empty, ErrorBox, Notice, StatusBadge } from "../ui/States.tsx"
import { NotificationSettings } from "./NotificationSettings.tsx"

/** The Free plan's limit on alerts that are `active` or `triggered` (docs/reference/errors.md, ALERT_LIMIT_EXCEEDED). */
export const FREE_ALERT_LIMIT = 5

const PAGE_SIZE = 20

const describe = (alert: Alert): string => {
  switch (alert.type) {
    case "price":
      return `${alert.token} ${alert.condition} ${alert.targetPrice} USD`
    case "volume":
      return `${alert.token} hourly volume at ${alert.multiplier ?? 3}× its 24 h average`
    case "whale":
      return `${alert.token} swap worth ${alert.minValueUsd ?? 100_000} USD or more`
    case "portfolio":
      return `portfolio value moves ${alert.changePercent ?? 10}% in 24 h`
  }
}

/** An optional numeric field: absent when left empty, so the server's default applies. */
const optional = (name: string, value: string) => (value.trim() === "" ? {} : { [name]: Number(value) })

const CreateAlert = ({ onCreated }: { readonly onCreated: () => void }) => {
  const type = useSignal<AlertType>("price")
  const token = useSignal("SOL")
  const condition = useSignal<"above" | "below">("above")
  const targetPrice = useSignal("")
  const multiplier = useSignal("")
  const minValueUsd = useSignal("")
  const changePercent = useSignal("")
  const channel = useSignal<Channel>("email")
  const error = useSignal<unknown>(null)
  const created = useSignal<Alert | null>(null)
  const busy = useSignal(false)

  const body = () => {
    switch (type.value) {
      case "price":
        return { type: "price", token: token.value.trim(), condition: condition.value, targetPrice: Number(targetPrice.value), channel: channel.value }
      case "volume":
        return { type: "volume", token: token.value.trim(), ...optional("multiplier", multiplier.value), channel: channel.value }
      case "whale":
        return { type: "whale", token: token.value.trim(), ...optional("minValueUsd", minValueUsd.value), channel: channel.value }
      case "portfolio":
        return { type: "portfolio", ...optional("changePercent", changePercent.value), channel: channel.value }
    }
  }

  return (
    <Form
      label="Create alert"
      onSubmit={async () => {
        busy.value = true
        error.value = null
        created.value = null
        try {
          created.value = (await call<Alert>("POST", "/alerts", { body: body() })).data
          onCreated()
        } catch (failure) {
          // Only the Free plan has a limit: the refusal says which plan this key is on.
          if (failure instanceof ApiError && failure.code === "ALERT_LIMIT_EXCEEDED") learnPlan("free")
          error.value = failure
        } finally {
          busy.value = false
        }
      }}
    >
      <SelectField
        label="Alert type"
        value={type.value}
        options={[["price", "Price"], ["volume", "Volume spike"], ["whale", "Whale swap"], ["portfolio", "Portfolio change"]]}
        onChange={(value) => (type.value = value)}
      />
      {type.value === "portfolio" ? null : (
        <TextField label="Token" value={token.value} onInput={(value) => (token.value = value)} list="known-tokens" required />
      )}
      {type.value !== "price" ? null : (
        <>
          <SelectField label="Condition" value={condition.value} options={["above", "below"]} onChange={(value) => (condition.value = value)} />
          <TextField label="Target price (USD)" value={targetPrice.value} onInput={(value) => (targetPrice.value = value)} inputMode="decimal" required />
        </>
      )}
      {type.value !== "volume" ? null : (
        <TextField label="Volume multiplier" value={multiplier.value} onInput={(value) => (multiplier.value = value)} inputMode="decimal" hint="Default 3" />
      )}
      {type.value !== "whale" ? null : (
        <TextField label="Minimum swap value (USD)" value={minValueUsd.value} onInput={(value) => (minValueUsd.value = value)} inputMode="decimal" hint="Default 100000" />
      )}
      {type.value !== "portfolio" ? null : (
        <TextField label="Change (%)" value={changePercent.value} onInput={(value) => (changePercent.value = value)} inputMode="decimal" hint="Default 10" />
      )}
      <SelectField label="Channel" value={channel.value} options={["email", "push", "telegram"]} onChange={(value) => (channel.value = value)} />
      <button type="submit" disabled={busy.value}>Create alert</button>
      <ErrorBox error={error.value} title="Alert not created" />
      {created.value === null ? null : <Notice>Alert created: {describe(created.value)}.</Notice>}
    </Form>
  )
}

export const AlertsScreen = () => {
  const status = useSignal<AlertStatus | "">("")
  const type = useSignal<AlertType | "">("")
  const offset = useSignal(0)
  const alerts = useResource<Page & { readonly alerts: ReadonlyArray<Alert> }>()
  const counting = useResource<number>()
  const actionError = useSignal<unknown>(null)

  const plan = planInUse()
  const refresh = () =>
    Promise.all([
      alerts.load(() => get("/alerts", { status: status.value, type: type.value, limit: PAGE_SIZE, offset: offset.value })),
      // Pro has no limit: nothing to count against.
      plan === "pro" ? Promise.resolve() : counting.load(async () => {
        const [active, triggered] = await Promise.all([
          get<Page>("/alerts", { status: "active", limit: 1 }),
          get<Page>("/alerts", { status: "triggered", limit: 1 })
        ])
        return active.total + triggered.total
      })
    ])
  usePoll(refresh, 10_000, [status.value, type.value, offset.value, plan])

  const act = async (method: "PATCH" | "DELETE", alert: Alert, body?: unknown) => {
    actionError.value = null
    try {
      await call(method, `/alerts/${alert.id}`, body === undefined ? {} : { body })
    } catch (failure) {
      actionError.value = failure
    }
    await refresh()
  }

  const used = counting.data
  return (
    <div class="screen">
      <h1>Alerts</h1>
      <div class="columns">
        <Section title="New alert">
          {plan === "pro" ? null : (
            <p class="muted" aria-live="polite">
              {plan === "free"
                ? used === undefined
                  ? `The Free plan allows ${FREE_ALERT_LIMIT} alerts that are active or triggered.`
                  : `${used} of ${FREE_ALERT_LIMIT} alerts active or triggered (the Free plan's limit).`
                : `${used === undefined ? "" : `${used} alerts active or triggered. `}The Free plan allows ${FREE_ALERT_LIMIT}; Pro has no limit.`}
              {plan !== "free" || used === undefined
                ? null
                : used >= FREE_ALERT_LIMIT
                ? " Disable or delete one before creating another."
                : used === FREE_ALERT_LIMIT - 1
                ? " One more can be created."
                : null}
            </p>
          )}
          <CreateAlert onCreated={() => void refresh()} />
        </Section>
        <Section title="Your alerts">
          <Form layout="toolbar" label="Alert filters">
            <SelectField
              label="Status"
              value={status.value}
              options={[["", "All statuses"], "active", "triggered", "disabled"]}
              onChange={(value) => {
                offset.value = 0
                status.value = value
              }}
            />
            <SelectField
              label="Type"
              value={type.value}
              options={[["", "All types"], "price", "volume", "whale", "portfolio"]}
              onChange={(value) => {
                offset.value = 0
                type.value = value
              }}
            />
          </Form>
          <ErrorBox error={actionError.value} />
          <PagedRows
            what="alerts"
            resource={alerts}
            itemsOf={(page) => page.alerts}
            offset={offset}
            empty={<Empty>No alerts{status.value === "" ? "" : ` that are ${status.value}`}. Create one with the form.</Empty>}
          >
            {(alert) => (
              <>
                <div>
                  <StatusBadge status={alert.status} /> <strong>{alert.type}</strong>: {describe(alert)}
                  <br />
                  <small class="muted">
                    by {alert.channel}; created {time(alert.createdAt)}
                    {alert.triggeredAt === null || alert.triggeredAt === undefined ? "" : `; fired ${time(alert.triggeredAt)}`}
                  </small>
                </div>
                <div class="actions">
                  {alert.status === "active"
                    ? (
                      <button type="button" class="secondary" aria-label={`Disable alert ${describe(alert)}`} onClick={() => void act("PATCH", alert, { status: "disabled" })}>
                        Disable
                      </button>
                    )
                    : (
                      <button type="button" class="secondary" aria-label={`Re-arm alert ${describe(alert)}`} onClick={() => void act("PATCH", alert, { status: "active" })}>
                        Re-arm
                      </button>
                    )}
                  <button type="button" class="danger" aria-label={`Delete alert ${describe(alert)}`} onClick={() => void act("DELETE", alert)}>
                    Delete
                  </button>
                </div>
              </>
            )}
          </PagedRows>
        </Section>
      </div>
      {serves("/v1/account/notifications") ? <NotificationSettings /> : null}
    </div>
  )
}
