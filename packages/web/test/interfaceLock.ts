/**
 * A lock on the built interface (`packages/web/dist/app`) between test files that run side by side: a
 * server reads those files once, as it starts, and `vite build` (in `pnpm start`, or a pack's prepack)
 * empties the directory before writing it again. A test holds the lock shared while its server starts
 * and reads the files, or alone while it builds them. The lock is the kernel's flock(2) on a file in
 * node_modules, held by a `flock` process the test owns: a test that dies mid-way leaves none behind.
 * The server's process tests and the consumer test take it through this module too.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const lockFile = fileURLToPath(new URL("../../../node_modules/.swapdesk-interface.lock", import.meta.url))

/** Waits for the lock, shared to `read` the files or alone to `build` them; resolves to its release. */
export const holdInterface = (mode: "read" | "build"): Promise<() => Promise<void>> =>
  new Promise((resolve, reject) => {
    const holder = spawn("flock", [
      mode === "read" ? "--shared" : "--exclusive",
      lockFile,
      "sh",
      "-c",
      "echo held; exec cat"
    ], {
      stdio: ["pipe", "pipe", "inherit"]
    })
    const exited = new Promise<void>((done) => holder.once("exit", () => done()))
    // Without flock(1) (util-linux; not on every system) the files go unguarded rather than untested.
    holder.once(
      "error",
      (error: NodeJS.ErrnoException) => error.code === "ENOENT" ? resolve(() => Promise.resolve()) : reject(error)
    )
    void exited.then(() => reject(new Error(`flock ${lockFile} ended before holding it`)))
    holder.stdout.once("data", () =>
      resolve(() => {
        holder.stdin.end()
        return exited
      }))
  })

/** Runs `body` holding the lock. */
export const withInterface = async <A>(mode: "read" | "build", body: () => Promise<A>): Promise<A> => {
  const release = await holdInterface(mode)
  try {
    return await body()
  } finally {
    await release()
  }
}
