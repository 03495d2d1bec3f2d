/**
 * Vitest global setup: builds the interface once per run (into packages/web/dist/app, where the
 * server serves it from), so the browser tests drive the current sources.
 */
import { build } from "vite"

export default async function buildInterface() {
  await build({ configFile: new URL("../vite.config.ts", import.meta.url).pathname, logLevel: "warn" })
}
