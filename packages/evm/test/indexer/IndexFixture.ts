/**
 * What the index tests share: an anvil node with Uniswap V2, a LINK/USDC pool and a UNI/WETH pool
 * (UNI is priced through WETH), swaps at chosen block times, a live file over the node, and stores
 * on SQLite files or fresh PostgreSQL schemas.
 */
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Address, maxUint256, parseAbi, parseUnits } from "viem"
import {
  addPool,
  type Anvil,
  confirmed,
  type DemoMarket,
  deployDemoMarket,
  deployDemoToken,
  devAccount,
  type DevnetClient,
  devnetClient,
  mintDemoToken,
  startAnvil,
  uniswapV2RouterAbi,
  wrapEth
} from "../../src/devnet/index.ts"
import { decodeLiveConfig, type LiveConfig } from "../../src/index.ts"

export interface Fixture {
  readonly anvil: Anvil
  readonly owner: DevnetClient
  readonly market: DemoMarket
  readonly uni: Address
}

const approveAbi = parseAbi(["function approve(address spender, uint256 amount) returns (bool)"])

/** The node, the market, and the owner's approvals for swapping through the router. */
export const startFixture = async (): Promise<Fixture> => {
  const anvil = await startAnvil({ chainId: 1 })
  const owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
  const market = await deployDemoMarket(owner, {
    quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    ethPrice: "3000",
    depth: 1_000_000n,
    tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
  })
  const uni = await deployDemoToken(owner, { name: "Uniswap", symbol: "UNI", decimals: 18 })
  await mintDemoToken(owner, uni, owner.account.address, parseUnits("600000", 18))
  await wrapEth(owner, market.uniswap.weth, parseUnits("200", 18))
  await addPool(owner, market.uniswap, {
    tokenA: uni,
    amountA: parseUnits("300000", 18),
    tokenB: market.uniswap.weth,
    amountB: parseUnits("100", 18)
  })
  await mintDemoToken(owner, market.tokens["USDC"]!.address, owner.account.address, parseUnits("10000000", 6))
  await mintDemoToken(owner, market.tokens["LINK"]!.address, owner.account.address, parseUnits("100000", 18))
  for (const token of [market.tokens["USDC"]!.address, market.tokens["LINK"]!.address, uni, market.uniswap.weth]) {
    await confirmed(
      owner,
      await owner.writeContract({
        address: token,
        abi: approveAbi,
        functionName: "approve",
        args: [market.uniswap.router, maxUint256]
      })
    )
  }
  return { anvil, owner, market, uni }
}

/** Swaps `amountIn` of `from` into `to` through the router, mined in a block of its own at `atSeconds` when given. */
export const swap = async (f: Fixture, from: Address, to: Address, amountIn: bigint, atSeconds?: number) => {
  if (atSeconds !== undefined) {
    await f.owner.request({ method: "evm_setNextBlockTimestamp" as never, params: [atSeconds] as never })
  }
  await confirmed(
    f.owner,
    await f.owner.writeContract({
      address: f.market.uniswap.router,
      abi: uniswapV2RouterAbi,
      functionName: "swapExactTokensForTokens",
      args: [amountIn, 0n, [from, to], f.owner.account.address, 2n ** 40n]
    })
  )
}

/** Mines `n` empty blocks. */
export const mine = async (f: Fixture, n: number) => {
  for (let i = 0; i < n; i++) await f.owner.request({ method: "evm_mine" as never, params: [] as never })
}

/** A live file naming the node (or `rpcUrl`) with the market's tokens. */
export const fixtureConfig = (f: Fixture, options: { confirmations?: number; rpcUrl?: string } = {}): LiveConfig =>
  decodeLiveConfig({
    networks: {
      ethereum: {
        rpcUrl: options.rpcUrl ?? f.anvil.rpcUrl,
        chainId: 1,
        confirmations: options.confirmations ?? 2,
        startBlock: 0,
        dex: { kind: "uniswap-v2", ...f.market.uniswap },
        quoteToken: "USDC",
        feeRecipient: devAccount(3).address,
        executorKeyEnv: "SWAPDESK_EXECUTOR_KEY",
        tokens: [
          { symbol: "USDC", address: f.market.tokens["USDC"]!.address, decimals: 6 },
          { symbol: "WETH", address: f.market.uniswap.weth, decimals: 18 },
          { symbol: "LINK", address: f.market.tokens["LINK"]!.address, decimals: 18 },
          { symbol: "UNI", address: f.uni, decimals: 18 }
        ]
      }
    },
    accounts: [{ id: "acct_live", wallets: [] }]
  })

const directory = mkdtempSync(join(tmpdir(), "swapdesk-index-"))
let databases = 0
const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]

/** The stores the tests run on: SQLite always, PostgreSQL when `SWAPDESK_TEST_POSTGRES_URL` is set. */
export const storeKinds: ReadonlyArray<"sqlite" | "postgres"> = postgresUrl === undefined
  ? ["sqlite"]
  : ["sqlite", "postgres"]

/** A fresh, empty database of that kind, as a `DATABASE_URL`. */
export const freshDatabase = async (kind: "sqlite" | "postgres"): Promise<string> => {
  if (kind === "sqlite") return `sqlite:${join(directory, `index-${++databases}.db`)}`
  const schema = `index_${process.pid}_${++databases}`
  const runtime = ManagedRuntime.make(Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(postgresUrl!))))
  await runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    yield* sql.unsafe(`CREATE SCHEMA ${schema}`)
  }))
  await runtime.dispose()
  const url = new URL(postgresUrl!)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return url.toString()
}

/** The migrated client of a database. */
export const databaseLayer = (url: string) => Layer.orDie(SqlStore.layerClient(SqlStore.parseDatabaseUrl(url)))

/** Resolves once `check` holds, polling every 50 ms; fails after `timeoutMs`. */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not reached in time")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
