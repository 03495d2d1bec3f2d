/**
 * The simulation behind the core's ports. Each method is one synchronous call into the world, so
 * it is atomic with respect to the event loop and to every other request.
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import {
  ApiKeyEnvironment,
  Chain,
  DomainEvents,
  IdGenerator,
  makeChannelNotifier,
  MarketClock,
  MarketTimer,
  MoneyDecimal,
  Notifier,
  OrderSigner,
  PriceFeed,
  SecretHasher,
  simulatorCatalog,
  TokenRegistry,
  Wallets
} from "@swapdesk/core"
import { Effect, Layer, Option } from "effect"
import { SimulationState } from "./SimulationState.ts"

const priceFeed = Layer.effect(
  PriceFeed,
  SimulationState.useSync((sim) => ({
    priceUsd: (symbol) => Effect.sync(() => new MoneyDecimal(sim.market.priceUsd(symbol))),
    stats: (symbol, network) => Effect.sync(() => sim.market.stats(symbol, network)),
    hourlyVolumes: (symbol) => Effect.sync(() => sim.market.hourlyVolumes(symbol)),
    candles: (symbol, timeframe, fromMs, toMs, network) =>
      Effect.sync(() => sim.market.candles(symbol, timeframe, fromMs, toMs, network)),
    trending: (network) => Effect.sync(() => sim.market.trending(network)),
    fxRate: (currency) => Effect.sync(() => new MoneyDecimal(sim.market.fxRate(currency)))
  }))
)

const chain = Layer.effect(
  Chain,
  SimulationState.useSync((sim) => ({
    quote: (request) => Effect.sync(() => sim.chain.quote(request, sim.now)),
    // The simulated chain fills an order as any swap of the wallet's: the order's signature is not its
    // concern, and its state (snapshots included) stays what it was.
    submit: ({ order: _order, ...intent }) => Effect.sync(() => sim.chain.submit(intent, sim.now)),
    // Its wallets approve without signing anything: whatever the approval carries, it is one.
    decide: (tradeId, decision) => Effect.sync(() => sim.chain.decide(tradeId, decision._tag !== "Reject", sim.now)),
    approvalOf: () => Effect.succeed(undefined)
  }))
)

const wallets = Layer.effect(
  Wallets,
  SimulationState.useSync((sim) => ({
    wallet: (accountId, network) => Effect.sync(() => Option.fromNullishOr(sim.wallets.wallet(accountId, network))),
    list: (accountId) => Effect.sync(() => sim.wallets.list(accountId)),
    balances: (accountId, network) => Effect.sync(() => sim.wallets.balances(accountId, network)),
    revision: (accountId) => Effect.sync(() => sim.wallets.revision(accountId)),
    reserve: (hold) =>
      Effect.suspend(() => {
        const refused = sim.wallets.reserve(hold)
        return refused === undefined ? Effect.void : Effect.fail(refused)
      }),
    release: (holdId) => Effect.sync(() => void sim.wallets.release(holdId)),
    transferHold: (fromHoldId, toHoldId) => Effect.sync(() => sim.wallets.transferHold(fromHoldId, toHoldId)),
    opening: (accountId, network) =>
      Effect.sync(() => ({ at: sim.startMs, balances: sim.wallets.opening(accountId, network) }))
  }))
)

const orderSigner = Layer.effect(
  OrderSigner,
  SimulationState.useSync((sim) => ({
    sign: (accountId, terms) => Effect.sync(() => sim.keys.sign(accountId, terms)),
    verify: (accountId, terms, signed) => Effect.sync(() => sim.keys.verify(accountId, terms, signed))
  }))
)

/** SHA-256 by the audited noble implementation: the simulator's ports import no platform module. */
const secretHasher = Layer.succeed(SecretHasher, {
  sha256Hex: (secret) => bytesToHex(sha256(new TextEncoder().encode(secret)))
})

/**
 * Every notification goes to the outbox; one whose channel the deployment configured also leaves
 * on it (`ChannelTransport`), with retries on the market clock, and its outbox item follows.
 */
const notifier = Layer.effect(
  Notifier,
  Effect.gen(function*() {
    const sim = yield* SimulationState
    return yield* makeChannelNotifier({
      notConfigured: (notification) => Effect.sync(() => void sim.notify(notification, "recorded")),
      sending: (notification) =>
        Effect.sync(() => {
          const index = sim.notify(notification, "pending")
          return ({ attempt, status }) =>
            Effect.sync(() => sim.updateNotification(index, status === "retrying" ? "pending" : status, attempt))
        })
    })
  })
)

const timer = Layer.effect(
  MarketTimer,
  SimulationState.useSync((sim) => ({
    schedule: (atMs, task) => Effect.sync(() => sim.defer(atMs, task))
  }))
)

const domainEvents = Layer.effect(
  DomainEvents,
  SimulationState.useSync((sim) => ({
    publish: (event) =>
      Effect.sync(() => sim.log.append(sim.now, event.type, { accountId: event.accountId, ...event.data }))
  }))
)

const ids = Layer.effect(
  IdGenerator,
  SimulationState.useSync((sim) => ({
    next: (kind) => Effect.sync(() => sim.nextId(kind)),
    token: (length) => Effect.sync(() => sim.token(length))
  }))
)

const clock = Layer.effect(
  MarketClock,
  SimulationState.useSync((sim) => ({ now: Effect.sync(() => sim.now) }))
)

/**
 * Every port the simulation implements, with `hasher` as the `SecretHasher`, the test-key
 * environment and the simulator's token catalogue; requires `SimulationState` and the real channels the deployment configured
 * (`ChannelTransport`).
 */
export const layerPortsWith = (hasher: Layer.Layer<SecretHasher>) =>
  notifier.pipe(
    Layer.provideMerge(Layer.mergeAll(
      priceFeed,
      chain,
      wallets,
      orderSigner,
      domainEvents,
      ids,
      clock,
      timer,
      hasher,
      // Keys created on the simulator are test keys: `sd_test_…`.
      Layer.succeed(ApiKeyEnvironment, "test"),
      Layer.succeed(TokenRegistry, simulatorCatalog)
    ))
  )

/** Every port the simulation implements, keys hashed by noble's SHA-256 (`layerPortsWith`). */
export const layerPorts = layerPortsWith(secretHasher)
