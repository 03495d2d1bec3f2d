/**
 * Sign-in by API key. The key is checked with the server, then kept in `sessionStorage` only. On
 * the simulator the demo scenario's keys are offered as one-click choices.
 */
import { useSignal } from "@preact/signals"
import { demoKeys, isSimulator, signIn } from "../Session.ts"
import { TextField } from "../ui/Fields.tsx"
import { Form } from "../ui/Form.tsx"
import { ErrorBox } from "../ui/States.tsx"

export const SignInScreen = () => {
  const key = useSignal("")
  const error = useSignal<unknown>(null)
  const busy = useSignal(false)
  const attempt = async (value: string) => {
    busy.value = true
    error.value = null
    try {
      await signIn(value.trim())
    } catch (failure) {
      error.value = failure
    } finally {
      busy.value = false
    }
  }
  return (
    <main id="main" class="signin">
      <h1>Sign in to swapdesk</h1>
      <p class="muted">
        Use an API key of your account. It stays in this tab only and is sent to this server's API alone.
      </p>
      <Form
        label="Sign in"
        onSubmit={() => {
          void attempt(key.value)
        }}
      >
        <TextField label="API key" type="password" value={key.value} onInput={(value) => (key.value = value)} placeholder="sd_live_… or sd_test_…" required />
        <button type="submit" disabled={busy.value}>Sign in</button>
      </Form>
      <ErrorBox error={error.value} title="Not signed in" />
      {isSimulator()
        ? (
          <section class="card" aria-labelledby="demo-keys">
            <h2 id="demo-keys">Demo keys (simulator)</h2>
            <p class="muted">This server runs the simulator; the demo scenario's keys open its accounts.</p>
            <ul class="demo-keys">
              {demoKeys.map((demo) => (
                <li key={demo.key}>
                  <button type="button" class="secondary" disabled={busy.value} onClick={() => void attempt(demo.key)}>
                    Sign in as {demo.label}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )
        : null}
    </main>
  )
}
