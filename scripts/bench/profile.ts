/**
 * Profiles the swapdesk server under load, one route at a time: starts the benchmark's server
 * process, warms the route up, then records a V8 CPU profile (the profiler `node --cpu-prof` uses,
 * started through the inspector so that it covers the loaded window only, not start-up) while
 * autocannon loads it. Writes `.reports/profiles/<route>.cpuprofile` (open it in Chrome DevTools or
 * speedscope) and prints where the time went.
 *
 *   pnpm exec node scripts/bench/profile.ts [market-data|trade|health|routes-floor|api-floor|floor|runtime|raw]... [--seconds N]
 */
import { mkdirSync } from "node:fs"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { formatSummary, type Profile, summarise } from "./CpuProfile.ts"
import { checkTarget, createTrades, defaultHttpOptions, load, startServers, targetsOf } from "./http.ts"
import { progress } from "./Report.ts"

const routes = {
  raw: "raw",
  runtime: "runtime",
  floor: "floor",
  "api-floor": "apiFloor",
  "routes-floor": "routesFloor",
  health: "health",
  "market-data": "marketData",
  trade: "tradeRead"
} as const
type Route = keyof typeof routes
const isRoute = (name: string): name is Route => Object.hasOwn(routes, name)

const args = process.argv.slice(2)
const secondsAt = args.indexOf("--seconds")
const seconds = secondsAt >= 0 ? Number(args[secondsAt + 1]) : 8
const names = args.filter((arg, i) => !arg.startsWith("--") && (secondsAt < 0 || i !== secondsAt + 1))
const unknown = names.filter((name) => !isRoute(name))
if (unknown.length > 0 || !(seconds > 0)) {
  console.error(`usage: pnpm exec node scripts/bench/profile.ts [${Object.keys(routes).join("|")}]... [--seconds N]`)
  process.exit(2)
}
const chosen: ReadonlyArray<Route> = names.length === 0 ? ["market-data", "trade"] : names.filter(isRoute)

const directory = join(import.meta.dirname, "..", "..", ".reports", "profiles")
mkdirSync(directory, { recursive: true })

const servers = await startServers()
try {
  const targets = targetsOf(servers, await createTrades(servers))
  for (const route of chosen) {
    const target = targets[routes[route]]!
    await checkTarget(target)
    progress(`profile: ${target.name}: 3 s warm-up, then ${seconds} s profiled`)
    await load(target, 3, defaultHttpOptions.connections)
    target.server.profileStart()
    const measured = await load(target, seconds, defaultHttpOptions.connections)
    const file = join(directory, `${route}.cpuprofile`)
    await target.server.profileStop(file)
    console.log(
      `\n${target.name}: ${Math.round(measured.requestsPerSecond)} req/s while profiled, p99 ${measured.p99Ms} ms\n` +
        formatSummary(file, summarise(JSON.parse(readFileSync(file, "utf8")) as Profile))
    )
  }
} finally {
  await servers.stop()
}
