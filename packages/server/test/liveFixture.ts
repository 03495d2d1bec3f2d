/**
 * What the live server's tests set up alike, named once: one anvil node with Uniswap V2, the demo
 * market (USDC quote, LINK) and the project's contract (`startLiveChain`), the live configuration of
 * one account on it (`liveConfigOf`), the live server in process on an ephemeral port
 * (`startLiveServer`), its records in a SQLite file (`sqliteRepositories`), an API client with a key
 * (`apiClient`) and the polling the tests wait with (`until`).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  decodeLiveConfig,
  deploySwapdeskRouter,
  type LiveConfig,
  readDelegatedSigners,
  readExecutorSigners,
  swapTransaction
} from "@swapdesk/evm"
import {
  type Anvil,
  type DemoMarket,
  deployDemoMarket,
  devAccount,
  devMnemonic,
  type DevnetClient,
  devnetClient,
  mintDemoToken,
  startAnvil
} from "@swapdesk/evm/devnet"
import { serve } from "@swapdesk/http"
import { NodeServerPlatform } from "@swapdesk/http/node"
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Address, erc20Abi, type Hex, maxUint256, parseUnits, toHex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { assert } from "vitest"
import { liveApp, type LiveAppOptions } from "../src/LiveServer.ts"

/** The private key of the dev mnemonic's account at `index`, as a key variable holds it. */
export const keyOf = (index: number): Hex =>
  toHex(mnemonicToAccount(devMnemonic, { addressIndex: index }).getHdKey().privateKey!)

/** One anvil node (chain id 1) with the demo market and the project's contract on it. */
export interface LiveChain {
  readonly anvil: Anvil
  readonly deployer: DevnetClient
  readonly market: DemoMarket
  readonly contract: Address
  readonly executorIndex: number
}

/**
 * Starts anvil, deploys Uniswap V2 with USDC (quote, ETH at 3000) and LINK at 14.5, and the project's
 * contract with the dev account at `executorIndex` as its executor and account 3 as fee recipient;
 * mints `usdc` USDC (10 000 unless given) to `wallet`.
 */
export const startLiveChain = async (
  options: { readonly executorIndex: number; readonly wallet: Address; readonly usdc?: string }
) => {
  const anvil = await startAnvil({ chainId: 1 })
  const deployer = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
  const market = await deployDemoMarket(deployer, {
    quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    ethPrice: "3000",
    depth: 10_000_000n,
    tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
  })
  const contract = await deploySwapdeskRouter(deployer, {
    router: market.uniswap.router,
    weth: market.uniswap.weth,
    executor: devAccount(options.executorIndex).address,
    feeRecipient: devAccount(3).address,
    owner: deployer.account.address
  })
  await mintDemoToken(deployer, market.tokens["USDC"]!.address, options.wallet, parseUnits(options.usdc ?? "10000", 6))
  return { anvil, deployer, market, contract, executorIndex: options.executorIndex } satisfies LiveChain
}

/** Mines a block every second from now on, as the tests' followers expect. */
export const mineEverySecond = (chain: LiveChain) =>
  chain.deployer.request({ method: "evm_setIntervalMining", params: [1] } as never)

/**
 * The live configuration of `chain` as network `ethereum` (one confirmation, the executor's key in
 * `executorKeyEnv`, `EXECUTOR_KEY` unless given, USDC, WETH, LINK and `extraTokens` listed) with one
 * account: `id`, key `key` (scopes `read` and `trade` unless `scopes`), its wallet (with
 * `signingKeyEnv` when delegated) and its `notifications`.
 */
export const liveConfigOf = (
  chain: LiveChain,
  account: {
    readonly id: string
    readonly key: string
    readonly wallet: Address
    readonly signingKeyEnv?: string
    /** The key's scopes: `read` and `trade` unless given. */
    readonly scopes?: ReadonlyArray<string>
    /** The account's notification settings: none unless given. */
    readonly notifications?: { readonly email?: string }
  },
  network: {
    /** The node's URL: the chain's anvil unless given (a proxy in front of it). */
    readonly rpcUrl?: string
    readonly executorKeyEnv?: string
    readonly extraTokens?: ReadonlyArray<
      { readonly symbol: string; readonly address: Address; readonly decimals: number }
    >
  } = {}
): LiveConfig =>
  decodeLiveConfig({
    networks: {
      ethereum: {
        rpcUrl: network.rpcUrl ?? chain.anvil.rpcUrl,
        chainId: 1,
        confirmations: 1,
        startBlock: 0,
        dex: { kind: "uniswap-v2", ...chain.market.uniswap },
        quoteToken: "USDC",
        feeRecipient: devAccount(3).address,
        executorKeyEnv: network.executorKeyEnv ?? "EXECUTOR_KEY",
        tokens: [
          { symbol: "USDC", address: chain.market.tokens["USDC"]!.address, decimals: 6 },
          { symbol: "WETH", address: chain.market.uniswap.weth, decimals: 18 },
          { symbol: "LINK", address: chain.market.tokens["LINK"]!.address, decimals: 18 },
          ...(network.extraTokens ?? [])
        ],
        contracts: { swapdeskRouter: chain.contract }
      }
    },
    accounts: [{
      id: account.id,
      plan: "pro",
      apiKeys: [{ name: "all", key: account.key, scopes: account.scopes ?? ["read", "trade"] }],
      ...(account.notifications === undefined ? {} : { notifications: account.notifications }),
      wallets: [{
        network: "ethereum",
        address: account.wallet,
        ...(account.signingKeyEnv === undefined ? {} : { signingKeyEnv: account.signingKeyEnv })
      }]
    }]
  })

/** Records (and the chain index) in a SQLite file in a fresh temporary directory named after `prefix`. */
export const sqliteRepositories = (prefix: string) =>
  Layer.orDie(
    SqlStore.layer(SqlStore.parseDatabaseUrl(`sqlite:${join(mkdtempSync(join(tmpdir(), prefix)), "live.sqlite")}`))
  )

/** A live server running in process: its base URL, and the runtime to dispose to stop it. */
export interface RunningLiveServer {
  readonly baseUrl: string
  readonly runtime: ManagedRuntime.ManagedRuntime<never, unknown>
}

/**
 * `liveApp` on `config` served on 127.0.0.1 at an ephemeral port, its signers read from `env` (none
 * without it), its followers polling every 200 ms; `options` adds to (or overrides) what `liveApp` is given.
 */
export const startLiveServer = async <E>(
  config: LiveConfig,
  env: Record<string, string> | undefined,
  options:
    & Omit<LiveAppOptions<E>, "signers" | "executors" | "followers">
    & Partial<Pick<LiveAppOptions<E>, "followers">>
): Promise<RunningLiveServer> => {
  const server = createServer()
  const app = liveApp(config, {
    signers: env === undefined ? [] : Effect.runSync(readDelegatedSigners(config, env)),
    executors: env === undefined ? undefined : Effect.runSync(readExecutorSigners(config, env)),
    followers: { pollIntervalMs: 200 },
    ...options
  })
  const runtime = ManagedRuntime.make(
    serve(app).pipe(
      Layer.provide(NodeServerPlatform),
      Layer.provideMerge(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" }))
    )
  ) as never as ManagedRuntime.ManagedRuntime<never, unknown>
  await runtime.runPromise(Effect.void)
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, runtime }
}

/** A call to the API at `baseUrl()` with the bearer `key`: its status and parsed JSON body. */
export const apiClient =
  (baseUrl: () => string, key: string) => async (method: string, path: string, body?: unknown) => {
    const response = await fetch(baseUrl() + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, json: await response.json() as any }
  }

/**
 * The limit orders the tests place through `call`: `place` opens one selling 100 USDC for at least
 * 7.3 LINK on ethereum (201, or the test fails), `orderOf` reads one.
 */
export const limitOrders = (call: ReturnType<typeof apiClient>) => ({
  place: async () => {
    const created = await call("POST", "/v1/orders", {
      tokenIn: "USDC",
      tokenOut: "LINK",
      amountIn: "100",
      minAmountOut: "7.3",
      network: "ethereum"
    })
    assert.strictEqual(created.status, 201, JSON.stringify(created.json))
    return created.json.data
  },
  orderOf: async (id: string) => (await call("GET", `/v1/orders/${id}`)).json.data
})

/** Reads until `done` holds, every 500 ms, failing with the last value read after `timeoutMs`. */
export const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 30_000): Promise<A> => {
  const start = Date.now()
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** The USDC balance of `address` on `chain`, in base units. */
export const usdcBalanceOf = (chain: LiveChain, address: Address) =>
  chain.deployer.readContract({
    address: chain.market.tokens["USDC"]!.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address]
  })

/** The deployer sells 80 000 LINK into the pool through the project's contract: LINK gets about 20% cheaper. */
export const sellLinkIntoPool = async ({ contract, deployer, market }: LiveChain) => {
  const link = market.tokens["LINK"]!.address
  const sold = parseUnits("80000", 18)
  await mintDemoToken(deployer, link, deployer.account.address, sold)
  await deployer.waitForTransactionReceipt({
    hash: await deployer.writeContract({
      address: link,
      abi: erc20Abi,
      functionName: "approve",
      args: [contract, maxUint256]
    })
  })
  const push = swapTransaction({
    from: deployer.account.address,
    tokenIn: link,
    tokenOut: market.tokens["USDC"]!.address,
    amountIn: sold,
    minAmountOut: 0n,
    path: [link, market.tokens["USDC"]!.address],
    deadline: BigInt(Math.floor(Date.now() / 1000) + 600)
  })
  await deployer.waitForTransactionReceipt({
    hash: await deployer.sendTransaction({ to: contract, data: push.data, value: push.value })
  })
}
