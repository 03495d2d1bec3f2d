/**
 * What the user does to a list read from the API (create, revoke, delete, cancel): the call's
 * failure is kept for the screen's ErrorBox until the next action, and the list is read again
 * after the call, whatever its outcome.
 */
import { useSignal } from "@preact/signals"

export const useAction = (refresh: () => Promise<void>) => {
  const error = useSignal<unknown>(null)
  const run = async (act: () => Promise<unknown>): Promise<void> => {
    error.value = null
    try {
      await act()
    } catch (failure) {
      error.value = failure
    }
    await refresh()
  }
  return { error, run }
}
