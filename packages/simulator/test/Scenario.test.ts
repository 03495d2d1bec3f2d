// Proves the scenario file's decoding (docs/simulator.md#the-scenario-file): the demo scenario and
// a JSON round trip of it decode unchanged; each kind of bad field fails with `InvalidScenario`
// whose issues name the field's path AND the value found there (and whose message shows both); text
// that is not JSON is refused with the parser's reason and no value; several problems are reported
// together, the schema's and those it cannot see (and a history file's) in the same report; keys left out take the documented defaults in the running simulation. Each bad file is
// a valid file with one field broken, so the issue can only come from that field.
import { assert, describe, it } from "@effect/vitest"
import { AccountRepository } from "@swapdesk/core"
import { Effect, Option } from "effect"
import { readFileSync } from "node:fs"
import { demoScenario } from "../src/DemoScenario.ts"
import {
  AccountSettings,
  ApiKeySettings,
  ClockSettings,
  decodeScenario,
  InvalidScenario,
  NetworkSettings,
  parseScenario,
  scenarioDefaults,
  ScenarioFile,
  type ScenarioIssue,
  TokenSettings,
  WalletSettings
} from "../src/Scenario.ts"
import { Simulation } from "../src/Simulation.ts"
import { SimulationState } from "../src/SimulationState.ts"
import { layerSimulator } from "../src/Simulator.ts"

const KEY = `sd_test_${"A1b2C3d4E5".repeat(4)}`

/** A valid scenario with every section present; each test breaks one field of a fresh copy. */
const valid = (): Record<string, any> => ({
  seed: 7,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: false,
  historyDays: 1,
  networks: { solana: { blockTimeMs: 400, failureRate: 0, confirmations: 32 } },
  tokens: [{ symbol: "SOL", priceUsd: 150 }],
  accounts: [
    {
      id: "acct_alice",
      plan: "free",
      apiKeys: [{ name: "all", key: KEY, scopes: ["read", "trade", "alerts", "account"] }],
      notifications: { email: "alice@example.com" },
      wallets: [{
        network: "solana",
        address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
        delegatedSigning: true,
        balances: { SOL: "10", USDC: "1000" }
      }]
    }
  ]
})

/** The issues a scenario is refused with; fails the test if it is accepted or throws anything else. */
const issuesOf = (input: unknown): ReadonlyArray<ScenarioIssue> => {
  try {
    decodeScenario(input)
  } catch (error) {
    assert.instanceOf(error, InvalidScenario)
    return (error as InvalidScenario).issues
  }
  return assert.fail(`accepted ${JSON.stringify(input)}`)
}

/** Asserts exactly one issue, at `path`, carrying `value`, and that the error message shows both. */
const expectOnlyIssue = (input: unknown, path: string, value: unknown, message?: RegExp) => {
  const issues = issuesOf(input)
  assert.deepStrictEqual(issues.map((i) => ({ path: i.path, value: i.value })), [{ path, value }])
  if (message !== undefined) assert.match(issues[0]!.message, message)
  const error = new InvalidScenario(issues)
  assert.include(error.message, path)
  assert.include(error.message, JSON.stringify(value))
}

const broken = (edit: (scenario: Record<string, any>) => void) => {
  const scenario = valid()
  edit(scenario)
  return scenario
}

describe("decodeScenario accepts", () => {
  it("the demo scenario, unchanged, and its JSON text", () => {
    assert.deepStrictEqual(decodeScenario(demoScenario), demoScenario)
    assert.deepStrictEqual(parseScenario(JSON.stringify(demoScenario, null, 2)), demoScenario)
  })

  it("the reference scenario with every section", () => {
    assert.deepStrictEqual(decodeScenario(valid()), valid() as ScenarioFile)
  })

  it("an empty file", () => {
    assert.deepStrictEqual(decodeScenario({}), {})
  })
})

describe("decodeScenario refuses, naming the field and the value", () => {
  it("a bad clock mode", () => {
    expectOnlyIssue(broken((s) => (s.clock.mode = "fast")), "clock.mode", "fast", /manual.*realtime/)
  })

  it("a negative failureRate", () => {
    expectOnlyIssue(
      broken((s) => (s.networks.solana.failureRate = -0.1)),
      "networks.solana.failureRate",
      -0.1,
      /between 0 and 1/
    )
  })

  it("a failureRate above 1, a fractional block time, negative confirmations", () => {
    const issues = issuesOf(
      broken((s) => (s.networks.solana = { failureRate: 1.5, blockTimeMs: 0.5, confirmations: -1 }))
    )
    assert.deepStrictEqual(issues.map((i) => [i.path, i.value]), [
      ["networks.solana.blockTimeMs", 0.5],
      ["networks.solana.failureRate", 1.5],
      ["networks.solana.confirmations", -1]
    ])
  })

  it("a network that does not exist", () => {
    expectOnlyIssue(broken((s) => (s.networks.polygon = { failureRate: 0 })), "networks.polygon", { failureRate: 0 })
  })

  // Each puts one balance into the first wallet (on Solana); the issue names the value it found.
  const badBalances = [
    {
      title: "a balance in a token that does not exist",
      symbol: "FOO",
      amount: "1",
      found: "FOO",
      message: /not a supported token/
    },
    { title: "a balance in a lower-case symbol", symbol: "usdt", amount: "1", found: "usdt", message: /upper-case/ },
    {
      title: "a balance in a token that is not on the wallet's network",
      symbol: "ARB",
      amount: "1",
      found: "ARB",
      message: /not available on solana/
    },
    {
      title: "a balance with more decimals than its token has",
      symbol: "USDC",
      amount: "1.1234567",
      found: "1.1234567",
      message: /7 decimal places.*at most 6/
    }
  ]
  for (const { title, symbol, amount, found, message } of badBalances) {
    it(title, () => {
      expectOnlyIssue(
        broken((s) => (s.accounts[0].wallets[0].balances[symbol] = amount)),
        `accounts.0.wallets.0.balances.${symbol}`,
        found,
        message
      )
    })
  }

  it("a balance that is not a plain decimal", () => {
    for (const bad of ["-1", "1e3", "00", "1.", " 1"]) {
      expectOnlyIssue(
        broken((s) => (s.accounts[0].wallets[0].balances.SOL = bad)),
        "accounts.0.wallets.0.balances.SOL",
        bad
      )
    }
  })

  it("a malformed API key", () => {
    expectOnlyIssue(
      broken((s) => (s.accounts[0].apiKeys[0].key = "sd_test_short")),
      "accounts.0.apiKeys.0.key",
      "sd_test_short",
      /40 base62/
    )
  })

  it("an unknown scope", () => {
    expectOnlyIssue(
      broken((s) => (s.accounts[0].apiKeys[0].scopes = ["read", "admin"])),
      "accounts.0.apiKeys.0.scopes.1",
      "admin"
    )
  })

  it("the same key twice", () => {
    expectOnlyIssue(
      broken((s) => s.accounts[0].apiKeys.push({ name: "again", key: KEY, scopes: ["read"] })),
      "accounts.0.apiKeys.1.key",
      KEY,
      /not unique/
    )
  })

  it("duplicate account ids", () => {
    expectOnlyIssue(
      broken((s) => s.accounts.push({ id: "acct_alice" })),
      "accounts.1.id",
      "acct_alice",
      /another account/
    )
  })

  it("an account id without its prefix", () => {
    expectOnlyIssue(broken((s) => (s.accounts[0].id = "alice")), "accounts.0.id", "alice", /acct_/)
  })

  it("two wallets of one account on one network", () => {
    expectOnlyIssue(
      broken((s) => s.accounts[0].wallets.push({ network: "solana", address: "second" })),
      "accounts.0.wallets.1.network",
      "solana"
    )
  })

  it("an unknown top-level key", () => {
    expectOnlyIssue(broken((s) => (s.sed = 7)), "sed", 7, /excess/)
  })

  it("an unknown nested key", () => {
    expectOnlyIssue(broken((s) => (s.accounts[0].wallets[0].balance = {})), "accounts.0.wallets.0.balance", {})
  })

  it("historyDays out of range", () => {
    expectOnlyIssue(broken((s) => (s.historyDays = 0)), "historyDays", 0, /between 1 and 90/)
    expectOnlyIssue(broken((s) => (s.historyDays = 2.5)), "historyDays", 2.5, /whole number/)
  })

  it("a start that is not an ISO date-time", () => {
    expectOnlyIssue(broken((s) => (s.clock.start = "yesterday")), "clock.start", "yesterday", /ISO 8601/)
  })

  it("a token override for a token that does not exist, or a price outside 1e-12 to 1e12 USD", () => {
    expectOnlyIssue(broken((s) => (s.tokens = [{ symbol: "FOO" }])), "tokens.0.symbol", "FOO")
    for (const price of [0, 1e-13, 1e13]) {
      expectOnlyIssue(broken((s) => (s.tokens[0].priceUsd = price)), "tokens.0.priceUsd", price, /1e-12 and 1e12/)
    }
  })

  it("text that is not JSON, and JSON that is not an object", () => {
    assert.throws(() => parseScenario("{ seed: 7 }"), InvalidScenario, /not valid JSON/)
    expectOnlyIssue([], "", [])
    expectOnlyIssue(null, "", null)
  })

  it("text that is not JSON, with the parser's reason and no value to show", () => {
    const text = "{ seed: 7 }"
    const reason = (() => {
      try {
        JSON.parse(text)
      } catch (error) {
        return (error as Error).message
      }
      return assert.fail("the text parsed")
    })()
    try {
      parseScenario(text)
      assert.fail("accepted text that is not JSON")
    } catch (error) {
      assert.instanceOf(error, InvalidScenario)
      const { issues, message } = error as InvalidScenario
      assert.deepStrictEqual(issues, [{ path: "", message: `is not valid JSON: ${reason}` }])
      assert.strictEqual(message, `invalid scenario:\n  (root): is not valid JSON: ${reason}`)
    }
  })

  it("every problem of a file at once", () => {
    const issues = issuesOf(broken((s) => {
      s.clock.mode = "fast"
      s.networks.solana.failureRate = -1
      s.accounts[0].apiKeys[0].key = "nope"
      s.extra = true
    }))
    assert.sameMembers(issues.map((i) => i.path), [
      "clock.mode",
      "networks.solana.failureRate",
      "accounts.0.apiKeys.0.key",
      "extra"
    ])
  })

  it("the schema's issues, the rules it cannot see and the history files' faults in one report", () => {
    const scenario = broken((s) => {
      s.clock.mode = "fast" // the schema
      s.tokens.push({ symbol: "NOPE" }) // a rule the schema cannot see
      s.accounts[0].wallets[0].balances.FOO = "1" // the same, inside an account the schema refuses below
      s.accounts[0].plan = "gold" // the schema
      s.accounts.push({ id: "acct_alice" }) // an id used twice
      s.history = { ETH: { file: "missing.csv" } } // a file that cannot be read
    })
    let report: InvalidScenario | undefined
    try {
      decodeScenario(scenario, {
        readFile: (path) => {
          throw new Error(`no such file ${path}`)
        }
      })
    } catch (error) {
      if (error instanceof InvalidScenario) report = error
    }
    assert.isDefined(report)
    assert.sameMembers(report!.issues.map((i) => i.path), [
      "clock.mode",
      "accounts.0.plan",
      "tokens.1.symbol",
      "accounts.0.wallets.0.balances.FOO",
      "accounts.1.id",
      "history.ETH.file"
    ])
  })
})

describe("decodeScenario refuses what the simulation could not run", () => {
  // Each of these decoded before, and then made the simulation throw a RangeError while starting or silently
  // ran something other than what the file says.

  it("a start that is not a whole second (the market ticks on whole seconds)", () => {
    expectOnlyIssue(
      broken((s) => (s.clock.start = "2026-01-01T00:00:00.500Z")),
      "clock.start",
      "2026-01-01T00:00:00.500Z",
      /whole second/
    )
  })

  it("a start on a day the month does not have (Date.parse rolls 2026-02-30 over to March 2)", () => {
    expectOnlyIssue(broken((s) => (s.clock.start = "2026-02-30T00:00:00Z")), "clock.start", "2026-02-30T00:00:00Z")
    expectOnlyIssue(broken((s) => (s.clock.start = "2026-01-01T24:00:00Z")), "clock.start", "2026-01-01T24:00:00Z")
    assert.deepStrictEqual(decodeScenario(broken((s) => (s.clock.start = "2028-02-29T00:00:00Z"))).clock, {
      mode: "manual",
      start: "2028-02-29T00:00:00Z"
    })
  })

  it("token liquidity on a network where the token does not exist", () => {
    expectOnlyIssue(
      broken((s) => (s.tokens = [{ symbol: "SOL", liquidityUsd: { ethereum: 5_000_000 } }])),
      "tokens.0.liquidityUsd.ethereum",
      5_000_000,
      /SOL.*ethereum/
    )
  })

  it("a token override named by contract address or listed twice (it would be ignored)", () => {
    const mint = "So11111111111111111111111111111111111111112"
    expectOnlyIssue(broken((s) => (s.tokens = [{ symbol: mint, priceUsd: 1 }])), "tokens.0.symbol", mint)
    expectOnlyIssue(
      broken((s) => (s.tokens = [{ symbol: "SOL", priceUsd: 1 }, { symbol: "sol", priceUsd: 2 }])),
      "tokens.1.symbol",
      "sol",
      /twice/
    )
  })

  it("a price for a stablecoin, even its peg (it starts on its peg: the price would be ignored)", () => {
    for (const [symbol, price] of [["USDC", 0.97], ["USDT", 1], ["dai", 1.2]] as const) {
      const ticker = symbol.toUpperCase()
      expectOnlyIssue(
        broken((s) => (s.tokens = [{ symbol, priceUsd: price }])),
        "tokens.0.priceUsd",
        price,
        new RegExp(`stablecoin: ${ticker} starts on its peg of 1 USD \\(PUT /v1/sim/prices/${ticker} moves it off`)
      )
    }
    // Its other settings are used, and the world starts with it on its peg.
    const sim = new Simulation(
      decodeScenario(
        broken((s) => (s.tokens = [{ symbol: "USDC", annualVolatility: 0.5, liquidityUsd: { solana: 1_000_000 } }]))
      )
    )
    assert.approximately(sim.market.priceUsd("USDC"), 1, 0.004)
    // A scenario that skipped decoding cannot slip one through.
    assert.throws(() => new Simulation({ tokens: [{ symbol: "USDC", priceUsd: 0.97 }] }), /USDC is pegged/)
  })

  it("a price or a volatility for WETH (it tracks ETH: both would be ignored)", () => {
    expectOnlyIssue(
      broken((s) => (s.tokens = [{ symbol: "weth", priceUsd: 5 }])),
      "tokens.0.priceUsd",
      5,
      /cannot be set on WETH: it tracks ETH's price exactly \(set ETH's instead\)/
    )
    expectOnlyIssue(
      broken((s) => (s.tokens = [{ symbol: "WETH", annualVolatility: 2 }])),
      "tokens.0.annualVolatility",
      2,
      /tracks ETH/
    )
    // Its own volume and pools are used; set on ETH, the price moves both.
    const sim = new Simulation(
      decodeScenario(
        broken((s) => (s.tokens = [{ symbol: "ETH", priceUsd: 5 }, { symbol: "WETH", dailyVolumeUsd: 1_000_000 }]))
      )
    )
    assert.strictEqual(sim.market.priceUsd("WETH"), 5)
    assert.strictEqual(sim.market.priceUsd("ETH"), 5)
    assert.throws(() => new Simulation({ tokens: [{ symbol: "WETH", annualVolatility: 2 }] }), /WETH tracks ETH/)
  })
})

/** The first trade id and the BONK price of a world with this seed. */
const hashes = (seed: string | number) => {
  const sim = new Simulation(decodeScenario({ seed, historyDays: 1 }))
  return [sim.nextId("trade"), sim.market.priceUsd("BONK")]
}

describe("keys left out take the documented defaults", () => {
  it("the defaults are the documented ones", () => {
    assert.deepStrictEqual(scenarioDefaults, {
      seed: 1,
      clock: { mode: "manual", start: "2026-01-01T00:00:00Z", speed: 1 },
      historyDays: 30
    })
  })

  it("an empty scenario runs on seed 1, a manual clock from 2026-01-01, 30 days of history, no accounts", () => {
    const sim = new Simulation(decodeScenario({}))
    const start = Date.parse("2026-01-01T00:00:00Z")
    assert.strictEqual(sim.seed, 1)
    assert.strictEqual(sim.mode, "manual")
    assert.strictEqual(sim.speed, 1)
    assert.strictEqual(sim.startMs, start)
    assert.strictEqual(sim.now, start)
    assert.strictEqual(sim.market.historyStartMs, start - 30 * 86_400_000)
    assert.deepStrictEqual(sim.wallets.ledger(), [])
    assert.deepStrictEqual(sim.log.all[0], {
      seq: 1,
      at: "2026-01-01T00:00:00.000Z",
      type: "simulation.started",
      data: { seed: 1, mode: "manual" }
    })
  })

  it("a clock with only a mode starts at the default start; a realtime clock runs at speed 1", () => {
    const manual = new Simulation(decodeScenario({ historyDays: 1, clock: { mode: "manual" } }))
    assert.strictEqual(manual.startMs, Date.parse(scenarioDefaults.clock.start))
    const realtime = new Simulation(decodeScenario({ historyDays: 1, clock: { mode: "realtime" } }))
    assert.deepStrictEqual([realtime.mode, realtime.speed], ["realtime", 1])
  })

  it.effect("omitted account and wallet keys: plan free, no keys, no channels, no delegated signing, no balances", () => {
    const scenario = decodeScenario({
      historyDays: 1,
      accounts: [{ id: "acct_bare", wallets: [{ network: "base", address: "0xbare" }] }]
    })
    return Effect.gen(function*() {
      const sim = yield* SimulationState
      assert.deepStrictEqual(sim.wallets.list("acct_bare"), [
        { network: "base", address: "0xbare", delegatedSigning: false }
      ])
      assert.deepStrictEqual(sim.wallets.ledger(), [])
      const account = yield* (yield* AccountRepository).get("acct_bare")
      assert.deepStrictEqual(Option.getOrThrow(account), {
        id: "acct_bare",
        plan: "free",
        notifications: { email: null, telegram: null, push: null }
      })
    }).pipe(Effect.provide(layerSimulator(scenario)))
  })

  it("a seed may be a string or a number; a number and its text are the same seed", () => {
    assert.deepStrictEqual(hashes("seven"), hashes("seven"))
    assert.notDeepEqual(hashes("seven"), hashes(7))
    // A seed is used through its text, as docs/simulator.md says.
    assert.deepStrictEqual(hashes("7"), hashes(7))
  })
})

describe("docs/simulator.md", () => {
  const guide = readFileSync(new URL("../../../docs/simulator.md", import.meta.url), "utf8")

  it("documents every key of the scenario file in its table", () => {
    const nested = ["clock", "networks", "tokens", "accounts", "apiKeys", "wallets"]
    const keys = [
      ...Object.keys(ScenarioFile.fields).filter((k) => !nested.includes(k)),
      ...Object.keys(ClockSettings.fields).map((k) => `clock.${k}`),
      ...Object.keys(NetworkSettings.fields).map((k) => `networks.<network>.${k}`),
      ...Object.keys(TokenSettings.fields).map((k) => `tokens[].${k}`),
      ...Object.keys(AccountSettings.fields).filter((k) => !nested.includes(k)).map((k) => `accounts[].${k}`),
      ...Object.keys(ApiKeySettings.fields).map((k) => `accounts[].apiKeys[].${k}`),
      ...Object.keys(WalletSettings.fields).map((k) => `accounts[].wallets[].${k}`)
    ]
    assert.isAtLeast(keys.length, 25)
    for (const key of keys) assert.include(guide, `| \`${key}\` |`, `docs/simulator.md does not document ${key}`)
  })

  it("shows an example scenario that decodes", () => {
    const section = guide.slice(guide.indexOf("## The scenario file"))
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1]
    assert.isDefined(example)
    const scenario = parseScenario(example!)
    assert.strictEqual(scenario.accounts?.[0]?.wallets?.[0]?.balances?.["SOL"], "10")
  })
})
