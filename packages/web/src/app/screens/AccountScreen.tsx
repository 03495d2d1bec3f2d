/**
 * Account: API keys (create with scopes and an optional expiry, the secret shown once with a copy
 * button, list, revoke) and webhooks (create with events, the signing secret shown once, list,
 * delete, each one's delivery log). Each part appears where the server serves its routes.
 */
import { useSignal } from "@preact/signals"
import { call, get } from "../api/Api.ts"
import { type ApiKey, type Delivery, type Page, type Scope, scopes, type Webhook, webhookEvents } from "../api/Types.ts"
import { isoFromInput, time } from "../Format.ts"
import { keyInUseId } from "../KeyInUse.ts"
import { usePoll } from "../Live.ts"
import { serves } from "../Session.ts"
import { useAction } from "../ui/Action.ts"
import { CheckboxGroup, Section, TableScroller, TextField } from "../ui/Fields.tsx"
import { Form } from "../ui/Form.tsx"
import { useResource } from "../ui/Resource.ts"
import { Secret } from "../ui/Secret.tsx"
import { Empty, ErrorBox, Listing, StatusBadge } from "../ui/States.tsx"

const ApiKeys = () => {
  const keys = useResource<{ readonly total: number; readonly keys: ReadonlyArray<ApiKey> }>()
  const name = useSignal("")
  const chosen = useSignal<ReadonlyArray<Scope>>(["read"])
  const expires = useSignal("")
  const created = useSignal<ApiKey | null>(null)
  const refresh = () => keys.load(() => get("/auth/api-keys"))
  const { error, run } = useAction(refresh)
  const inUse = keys.data === undefined ? undefined : keyInUseId(keys.data.keys)
  usePoll(refresh, 30_000, [])

  return (
    <Section title="API keys">
      <Form
        label="Create API key"
        onSubmit={() => {
          created.value = null
          const expiresAt = isoFromInput(expires.value)
          return run(async () => {
            created.value = (await call<ApiKey>("POST", "/auth/api-keys", {
              body: { name: name.value.trim(), scopes: chosen.value, ...(expiresAt === undefined ? {} : { expiresAt }) }
            })).data
            name.value = ""
          })
        }}
      >
        <TextField label="Key name" value={name.value} onInput={(value) => (name.value = value)} required />
        <CheckboxGroup legend="Scopes" options={scopes} chosen={chosen.value} onChange={(next) => (chosen.value = next)} />
        <TextField label="Key expires at (UTC, optional)" type="datetime-local" value={expires.value} onInput={(value) => (expires.value = value)} />
        <button type="submit">Create key</button>
      </Form>
      <ErrorBox error={error.value} title="Key not created" />
      {created.value?.key === undefined ? null : <Secret label="New API key" copyLabel="Copy API key" value={created.value.key} />}
      <Listing what="API keys" resource={keys} itemsOf={(list) => list.keys} empty={<Empty>No keys.</Empty>}>
        {(list) => (
          <ul class="list" aria-label="API keys">
            {list.keys.map((key) => (
              <li key={key.id} class="row">
                <div>
                  <strong>{key.name}</strong> <code>{key.prefix}…{key.last4}</code> <span class="muted">{key.scopes.join(", ")}</span>
                  {key.id === inUse ? <> <span class="badge in-use">in use in this tab</span></> : null}
                  <br />
                  <small class="muted">
                    created {time(key.createdAt)}; last used {time(key.lastUsedAt)}; expires {key.expiresAt === null ? "never" : time(key.expiresAt)}
                  </small>
                </div>
                <div class="actions">
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke key ${key.name}`}
                    onClick={() => run(() => call("DELETE", `/auth/api-keys/${key.id}`))}
                  >
                    Revoke
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Listing>
    </Section>
  )
}

const Deliveries = ({ webhook }: { readonly webhook: Webhook }) => {
  const deliveries = useResource<Page & { readonly deliveries: ReadonlyArray<Delivery> }>()
  usePoll(() => deliveries.load(() => get(`/webhooks/${webhook.id}/deliveries`, { limit: 20 })), 15_000, [webhook.id])
  return (
    <div>
      <Listing what="deliveries" resource={deliveries} itemsOf={(log) => log.deliveries} empty={<Empty>No deliveries yet.</Empty>}>
        {(log) => (
          <TableScroller label={`Deliveries to ${webhook.url}`}>
            <table>
              <caption class="visually-hidden">Deliveries to {webhook.url}</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Status</th>
                  <th scope="col">Response</th>
                  <th scope="col">Next attempt</th>
                </tr>
              </thead>
              <tbody>
                {log.deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{time(delivery.createdAt)}</td>
                    <td>{delivery.event}</td>
                    <td>{delivery.attempt}</td>
                    <td><StatusBadge status={delivery.status} /></td>
                    <td>{delivery.responseStatus ?? "—"}</td>
                    <td>{time(delivery.nextAttemptAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
        )}
      </Listing>
    </div>
  )
}

/** The delivery log behind a disclosure, read (and kept live) only while it is open. */
const DeliveryLog = ({ webhook }: { readonly webhook: Webhook }) => {
  const open = useSignal(false)
  return (
    <details onToggle={(event) => (open.value = (event.currentTarget as HTMLDetailsElement).open)}>
      <summary>Delivery log</summary>
      {open.value ? <Deliveries webhook={webhook} /> : null}
    </details>
  )
}

const Webhooks = () => {
  const webhooks = useResource<{ readonly total: number; readonly webhooks: ReadonlyArray<Webhook> }>()
  const url = useSignal("")
  const events = useSignal<ReadonlyArray<string>>(["trade.confirmed", "alert.triggered"])
  const created = useSignal<Webhook | null>(null)
  const refresh = () => webhooks.load(() => get("/webhooks"))
  const { error, run } = useAction(refresh)
  usePoll(refresh, 30_000, [])
  return (
    <Section title="Webhooks">
      <Form
        label="Create webhook"
        onSubmit={() => {
          created.value = null
          return run(async () => {
            created.value = (await call<Webhook>("POST", "/webhooks", { body: { url: url.value.trim(), events: events.value } })).data
            url.value = ""
          })
        }}
      >
        <TextField label="Webhook URL" type="url" value={url.value} onInput={(value) => (url.value = value)} required placeholder="https://example.com/hooks/swapdesk" />
        <CheckboxGroup legend="Events" options={webhookEvents} chosen={events.value} onChange={(next) => (events.value = next)} />
        <button type="submit">Create webhook</button>
      </Form>
      <ErrorBox error={error.value} title="Webhook not created" />
      {created.value?.secret === undefined ? null : <Secret label="Signing secret" copyLabel="Copy signing secret" value={created.value.secret} />}
      <Listing what="webhooks" resource={webhooks} itemsOf={(list) => list.webhooks} empty={<Empty>No webhooks.</Empty>}>
        {(list) => (
          <ul class="list" aria-label="Webhooks">
            {list.webhooks.map((webhook) => (
              <li key={webhook.id}>
                <div class="row">
                  <span>
                    <code>{webhook.url}</code> <span class="muted">{webhook.events.join(", ")}</span>
                  </span>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Delete webhook ${webhook.url}`}
                    onClick={() => run(() => call("DELETE", `/webhooks/${webhook.id}`))}
                  >
                    Delete
                  </button>
                </div>
                <DeliveryLog webhook={webhook} />
              </li>
            ))}
          </ul>
        )}
      </Listing>
    </Section>
  )
}

export const AccountScreen = () => (
  <div class="screen">
    <h1>Account</h1>
    {serves("/v1/auth/api-keys") ? <ApiKeys /> : null}
    {serves("/v1/webhooks") ? <Webhooks /> : null}
  </div>
)
