/** A secret the server shows once: displayed with a copy button and a warning that it will not be shown again. */
import { useSignal } from "@preact/signals"

export const Secret = (
  { label, copyLabel, value }: { readonly label: string; readonly copyLabel: string; readonly value: string }
) => {
  const copied = useSignal(false)
  return (
    <div class="secret" role="status">
      <p>
        <strong>{label}</strong>: shown once. Copy it now; the server keeps only its hash.
      </p>
      <code class="wrap" data-secret>{value}</code>
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          await navigator.clipboard.writeText(value)
          copied.value = true
        }}
      >
        {copied.value ? "Copied" : copyLabel}
      </button>
    </div>
  )
}
