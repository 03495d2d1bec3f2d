/**
 * A value read from the API, with its loading and error state, as one signal-backed object: a
 * screen renders `loading`, `error` or `data`, and a refresh keeps the last data on screen while
 * it runs (a live view does not flash back to "Loading").
 */
import { useSignal } from "@preact/signals"
import { useRef } from "preact/hooks"

export interface Resource<T> {
  readonly data: T | undefined
  readonly error: unknown
  readonly loading: boolean
  /** Reads again; resolves when done (never rejects: the error is kept in `error`). */
  readonly load: (read: () => Promise<T>) => Promise<void>
  readonly set: (data: T | undefined) => void
  /** Forgets the data and the error, and drops the answer of any read still running. */
  readonly clear: () => void
}

export const useResource = <T>(): Resource<T> => {
  const data = useSignal<T | undefined>(undefined)
  const error = useSignal<unknown>(null)
  const loading = useSignal(false)
  const generation = useRef(0)
  return {
    get data() {
      return data.value
    },
    get error() {
      return error.value
    },
    get loading() {
      return loading.value
    },
    load: async (read) => {
      const mine = ++generation.current
      loading.value = true
      try {
        const value = await read()
        if (mine !== generation.current) return
        data.value = value
        error.value = null
      } catch (failure) {
        if (mine === generation.current) error.value = failure
      } finally {
        if (mine === generation.current) loading.value = false
      }
    },
    set: (value) => {
      data.value = value
    },
    clear: () => {
      generation.current++
      data.value = undefined
      error.value = null
      loading.value = false
    }
  }
}
