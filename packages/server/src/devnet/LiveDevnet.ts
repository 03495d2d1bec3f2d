/**
 * The live demo on local nodes (`live:devnet`, docs/live.md#the-devnet): an anvil node for each EVM
 * network (chain ids 1, 8453 and 42161), Uniswap V2 and WETH from their published artifacts, the
 * demo tokens with pools at the demo prices, a demo account whose delegated wallet on every network
 * holds ETH and tokens, and the live file that describes it all; then `live:deploy` on it. Every key
 * here is one of anvil's well-known development keys or a fresh demo API key: nothing in it is
 * worth anything off this machine. Development only.
 */
import {
  type Anvil,
  type DemoMarket,
  deployDemoMarket,
  devAccount,
  devnetClient,
  mintDemoToken,
  startAnvil
} from "@swapdesk/evm/devnet"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { randomBase62 } from "../live/RandomIds.ts"

/** A network of the devnet: its chain id, and the demo tokens beside USDC and WETH at their prices in USD. */
interface DevnetNetwork {
  readonly name: "ethereum" | "base" | "arbitrum"
  readonly chainId: number
  readonly tokens: ReadonlyArray<
    { readonly symbol: string; readonly name: string; readonly decimals: number; readonly price: string }
  >
}

/** The demo prices of the simulator's market (ETH 3100 USD), a few tokens per network. */
export const devnetNetworks: ReadonlyArray<DevnetNetwork> = [
  {
    name: "ethereum",
    chainId: 1,
    tokens: [
      { symbol: "WBTC", name: "Wrapped Bitcoin", decimals: 8, price: "90000" },
      { symbol: "LINK", name: "Chainlink", decimals: 18, price: "13" },
      { symbol: "UNI", name: "Uniswap", decimals: 18, price: "6" }
    ]
  },
  {
    name: "base",
    chainId: 8453,
    tokens: [
      { symbol: "AERO", name: "Aerodrome Finance", decimals: 18, price: "0.65" },
      { symbol: "DEGEN", name: "Degen", decimals: 18, price: "0.0015" }
    ]
  },
  {
    name: "arbitrum",
    chainId: 42161,
    tokens: [
      { symbol: "ARB", name: "Arbitrum", decimals: 18, price: "0.21" },
      { symbol: "GMX", name: "GMX", decimals: 18, price: "9" }
    ]
  }
]

const ETH_PRICE = "3100"
/** Each pool's USDC side, in whole USDC. */
const POOL_DEPTH = 2_000_000n
/** What the demo wallet holds of each token, in USD. */
const WALLET_VALUE_USD = 10_000n

/** The variables the devnet's server and `live:deploy` read their keys from. */
export const devnetVariables = {
  wallet: "SWAPDESK_DEVNET_WALLET_KEY",
  executor: "SWAPDESK_DEVNET_EXECUTOR_KEY"
} as const

/** A 0x address. */
type Address = `0x${string}`

/** The private key of one of anvil's development accounts (public knowledge). */
const devKey = (index: number): string => {
  const account = devAccount(index) as unknown as {
    readonly getHdKey: () => { readonly privateKey: Uint8Array | null }
  }
  const key = account.getHdKey().privateKey
  if (key === null) throw new Error(`no private key for development account ${index}`)
  return `0x${Buffer.from(key).toString("hex")}`
}

/** `amount` (a decimal string) in base units of `decimals`; the devnet's figures have at most 18 decimals. */
const baseUnits = (amount: string, decimals: number): bigint => {
  const [whole = "0", fraction = ""] = amount.split(".")
  if (fraction.length > decimals) throw new Error(`${amount} has more than ${decimals} decimals`)
  return BigInt(whole + fraction.padEnd(decimals, "0"))
}

/** The devnet's accounts: who deploys and owns the market, the demo wallet, the executor, the fee recipient. */
const roles = { deployer: 0, wallet: 1, executor: 2, feeRecipient: 3 } as const

/** A running devnet and the live file that describes it. */
export interface LiveDevnet {
  readonly directory: string
  readonly configPath: string
  readonly databaseUrl: string
  readonly nodes: Readonly<Record<DevnetNetwork["name"], { readonly anvil: Anvil; readonly market: DemoMarket }>>
  /** The demo account's id and its API keys (`sd_live_…`): all scopes, and read only. */
  readonly account: { readonly id: string; readonly keys: { readonly all: string; readonly read: string } }
  /** The demo account's delegated wallet, the same address on every network. */
  readonly wallet: Address
  /** The environment the server and `live:deploy` need beside `LIVE_CONFIG` (the development keys). */
  readonly env: Readonly<Record<string, string>>
  /** Stops every node. */
  readonly stop: () => Promise<void>
}

/** How a network's pools are built: the demo market, then the demo wallet funded with each token. */
const buildNetwork = async (network: DevnetNetwork) => {
  const anvil = await startAnvil({ chainId: network.chainId })
  try {
    const owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(roles.deployer))
    const market = await deployDemoMarket(owner, {
      quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
      ethPrice: ETH_PRICE,
      depth: POOL_DEPTH,
      tokens: network.tokens
    })
    const wallet = devAccount(roles.wallet).address
    await mintDemoToken(owner, market.tokens["USDC"]!.address, wallet, baseUnits(String(WALLET_VALUE_USD), 6))
    for (const token of network.tokens) {
      const amount = baseUnits(String(WALLET_VALUE_USD), token.decimals + 18) / baseUnits(token.price, 18)
      await mintDemoToken(owner, market.tokens[token.symbol]!.address, wallet, amount)
    }
    return { anvil, market }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

/** The live file of the devnet: its three networks and the demo account. */
const liveFileOf = (
  nodes: LiveDevnet["nodes"],
  account: LiveDevnet["account"],
  wallet: Address,
  confirmations: number
) => ({
  networks: Object.fromEntries(devnetNetworks.map((network) => {
    const { anvil, market } = nodes[network.name]
    return [network.name, {
      rpcUrl: anvil.rpcUrl,
      chainId: network.chainId,
      confirmations,
      startBlock: 0,
      dex: { kind: "uniswap-v2", ...market.uniswap },
      quoteToken: "USDC",
      feeRecipient: devAccount(roles.feeRecipient).address,
      executorKeyEnv: devnetVariables.executor,
      tokens: Object.values(market.tokens).map(({ address, decimals, symbol }) => ({ symbol, address, decimals }))
    }]
  })),
  accounts: [{
    id: account.id,
    plan: "pro",
    apiKeys: [
      { name: "devnet: all scopes", key: account.keys.all, scopes: ["read", "trade", "alerts", "account"] },
      { name: "devnet: read only", key: account.keys.read, scopes: ["read"] }
    ],
    wallets: devnetNetworks.map((network) => ({
      network: network.name,
      address: wallet,
      signingKeyEnv: devnetVariables.wallet
    })),
    notifications: { email: "devnet@example.com" }
  }]
})

/** What to start. */
export interface LiveDevnetOptions {
  /** Where the live file and the SQLite database are written. */
  readonly directory: string
  /** Blocks, the transaction's included, before a trade is confirmed: 2 unless given. */
  readonly confirmations?: number
}

/**
 * Starts the three nodes, builds the market on each (in parallel) and writes the live file. Once
 * built, each node mines a block every second, so that trades reach their confirmations.
 */
export const startLiveDevnet = async (options: LiveDevnetOptions): Promise<LiveDevnet> => {
  const built = await Promise.allSettled(devnetNetworks.map(buildNetwork))
  const stopAll = () =>
    Promise.all(built.map((result) => result.status === "fulfilled" ? result.value.anvil.stop() : undefined)).then(
      () => undefined
    )
  const failed = built.find((result) => result.status === "rejected")
  if (failed !== undefined) {
    await stopAll()
    throw failed.reason
  }
  const [ethereum, base, arbitrum] = built.map((result) =>
    (result as PromiseFulfilledResult<Awaited<ReturnType<typeof buildNetwork>>>).value
  )
  const nodes = { ethereum: ethereum!, base: base!, arbitrum: arbitrum! }
  for (const { anvil } of Object.values(nodes)) {
    await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_setIntervalMining", params: [1] })
    })
  }
  const account = {
    id: "acct_devnet",
    keys: { all: `sd_live_${randomBase62(40)}`, read: `sd_live_${randomBase62(40)}` }
  }
  const wallet = devAccount(roles.wallet).address
  const configPath = join(options.directory, "live.json")
  writeFileSync(
    configPath,
    JSON.stringify(liveFileOf(nodes, account, wallet, options.confirmations ?? 2), null, 2) + "\n"
  )
  return {
    directory: options.directory,
    configPath,
    databaseUrl: `sqlite:${join(options.directory, "swapdesk.sqlite")}`,
    nodes,
    account,
    wallet,
    env: {
      [devnetVariables.wallet]: devKey(roles.wallet),
      [devnetVariables.executor]: devKey(roles.executor),
      DEPLOYER_KEY: devKey(roles.deployer)
    },
    stop: stopAll
  }
}

const liveDeployMain = fileURLToPath(new URL("../../../evm/src/deploy/main.ts", import.meta.url))

/**
 * Runs `live:deploy` on the devnet's file (the project's contract on each network, its address
 * written into the file), its output passed through; rejects unless it succeeds.
 */
export const runLiveDeploy = (devnet: LiveDevnet): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [liveDeployMain], {
      env: { ...process.env, ...devnet.env, LIVE_CONFIG: devnet.configPath },
      stdio: ["ignore", "inherit", "inherit"]
    })
    child.once("error", reject)
    child.once("exit", (code) => code === 0 ? resolve() : reject(new Error(`live:deploy exited ${code}`)))
  })
