// Proves what a network outage does to the live ports, with a real node (anvil) behind an HTTP
// relay the test switches off and on: the status turns down within a poll and up again after;
// quotes fail at once with NetworkUnavailable while balances answer their last reading; a trade
// broadcast before the outage is mined during it, waits, and is confirmed once the RPC answers again.
import {
  type DomainEvent,
  DomainEvents,
  IdGenerator,
  layerMemoryOrderRepository,
  layerMemoryTradeRepository,
  MarketClock,
  MarketReactor,
  TradeRepository,
  Trades,
  Wallets
} from "@swapdesk/core"
import { Chain } from "@swapdesk/core"
import { Cause, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { createServer, type Server } from "node:http"
import { type AddressInfo } from "node:net"
import { parseUnits, toHex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type Anvil, devAccount, devMnemonic, type DevnetClient, mintDemoToken } from "../../src/devnet/index.ts"
import { decodeLiveConfig, type LiveConfig, readDelegatedSigners } from "../../src/index.ts"
import { layerLiveFollowers, layerLivePorts, layerLiveTokenRegistry, LiveNetworkStatus } from "../../src/live/index.ts"
import { demoNetwork, deployDemoRouter, startDemoChain } from "./demoNetwork.ts"
import { polling } from "./polling.ts"

const walletIndex = 5
const walletKey = toHex(mnemonicToAccount(devMnemonic, { addressIndex: walletIndex }).getHdKey().privateKey!)
const wallet = devAccount(walletIndex).address

let anvil: Anvil
let owner: DevnetClient
let relay: Server
let relayUp = true
let config: LiveConfig

/** Forwards each JSON-RPC request to the node while up; while down, drops the connection. */
const startRelay = (target: string) =>
  new Promise<Server>((resolve) => {
    const server = createServer((request, response) => {
      if (!relayUp) {
        request.socket.destroy()
        return
      }
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) })
          .then(async (answer) => {
            response.writeHead(answer.status, { "content-type": "application/json" })
            response.end(await answer.text())
          })
          .catch(() => request.socket.destroy())
      })
    })
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

const mine = (blocks = 1) => owner.request({ method: "anvil_mine", params: [toHex(blocks)] } as never)

const until = polling({ everyMs: 50, timeoutMs: 20_000 })

beforeAll(async () => {
  const started = await startDemoChain(1_000_000n)
  ;({ anvil, owner } = started)
  const market = started.market
  const contract = await deployDemoRouter(owner, market)
  await mintDemoToken(owner, market.tokens["USDC"]!.address, wallet, parseUnits("1000", 6))
  relay = await startRelay(anvil.rpcUrl)
  config = decodeLiveConfig({
    networks: {
      ethereum: demoNetwork(market, contract, {
        rpcUrl: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
        chainId: 1,
        confirmations: 2,
        executorKeyEnv: "SWAPDESK_EXECUTOR_KEY"
      })
    },
    accounts: [{ id: "acct_live", wallets: [{ network: "ethereum", address: wallet, signingKeyEnv: "WALLET_KEY" }] }]
  })
  // Blocks come from `mine` only.
  await owner.request({ method: "evm_setAutomine", params: [false] } as never)
}, 120_000)

afterAll(async () => {
  relay?.closeAllConnections()
  await new Promise((resolve) => relay?.close(resolve))
  await anvil?.stop()
})

it("a trade broadcast before an outage waits through it and is confirmed when the RPC answers again", async () => {
  let counter = 0
  const published: Array<DomainEvent> = []
  const signers = Effect.runSync(readDelegatedSigners(config, { WALLET_KEY: walletKey }))
  const domain = Trades.layer.pipe(
    Layer.provideMerge(layerLivePorts({ config, signers, rpcTimeoutMs: 1_000, statusPollIntervalMs: 100 })),
    Layer.provideMerge(Layer.mergeAll(
      Layer.succeed(IdGenerator, {
        next: (kind) => Effect.sync(() => `${kind}_${++counter}`),
        token: (length) => Effect.sync(() => "x".repeat(length))
      }),
      Layer.succeed(DomainEvents, { publish: (event) => Effect.sync(() => void published.push(event)) }),
      MarketClock.layer,
      layerLiveTokenRegistry(config)
    )),
    Layer.provideMerge(Layer.merge(layerMemoryTradeRepository, layerMemoryOrderRepository))
  )
  // The core's reactor does this for a trade without an order: the use case records the event.
  const reactor = Layer.effect(
    MarketReactor,
    Effect.map(Trades.use(Effect.succeed), (trades) => ({
      onTradeEvent: (tradeId, event) => Effect.asVoid(trades.apply(tradeId, event)),
      onMarket: () => Effect.void
    }))
  )
  const runtime = ManagedRuntime.make(
    layerLiveFollowers({ pollIntervalMs: 100, dropGraceMs: 0 }).pipe(Layer.provide(reactor), Layer.provideMerge(domain))
  )
  const status = () => runtime.runPromise(LiveNetworkStatus.use((s) => s.networks)).then(([n]) => n!.rpc)
  const stage = (id: string) =>
    runtime.runPromise(TradeRepository.use((r) => r.getById(id))).then((t) => t._tag === "Some" ? t.value.stage : "")
  try {
    const created = await runtime.runPromise(
      Trades.use((t) =>
        t.create("acct_live", { tokenIn: "USDC", tokenOut: "LINK", amountIn: "100", network: "ethereum" })
      )
    )
    expect(created.stage).toBe("broadcast")
    const before = await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))

    relayUp = false
    await until(status, (rpc) => rpc === "down")
    const quote = await runtime.runPromiseExit(
      Chain.use((c) => c.quote({ network: "ethereum", tokenIn: "USDC", tokenOut: "LINK", amountIn: 1_000_000n }))
    )
    expect(Exit.isFailure(quote) && Cause.squash(quote.cause)).toMatchObject({ _tag: "NetworkUnavailable" })
    // Reads answer the last balances read.
    expect(await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))).toEqual(before)

    // The approval and the swap are mined and confirmed while the server cannot see the node.
    await mine(3)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await stage(created.id)).toBe("broadcast")

    relayUp = true
    await until(status, (rpc) => rpc === "up")
    expect(await until(() => stage(created.id), (s) => s !== "broadcast")).toBe("confirmed")
  } finally {
    relayUp = true
    await runtime.dispose()
  }
}, 60_000)
