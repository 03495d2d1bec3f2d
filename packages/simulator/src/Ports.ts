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
  MarketClock,
  MoneyDecimal,
  Notifier,
  OrderSigner,
  PriceFeed,
  SecretHasher,
  Wallets
} from "@swapdesk/core"
import { Effect, Layer, Option } from "effect"
import { SimulationState } from "./SimulationState.ts"

const priceFeed = Layer.effect(
  PriceFeed,
  SimulationState.useSync((sim) => ({
    priceUsd: (symbol) => Effect.sync(() => new MoneyDecimal(sim.market.priceUsd(symbol))),
    stats: (symbol, network) => Effect.sync(() => sim.market.stats(symbol, network)),
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
    submit: (intent) => Effect.sync(() => sim.chain.submit(intent, sim.now)),
    decide: (tradeId, approve) => Effect.sync(() => sim.chain.decide(tradeId, approve, sim.now))
  }))
)

const wallets = Layer.effect(
  Wallets,
  SimulationState.useSync((sim) => ({
    wallet: (accountId, network) => Effect.sync(() => Option.fromNullishOr(sim.wallets.wallet(accountId, network))),
    list: (accountId) => Effect.sync(() => sim.wallets.list(accountId)),
    balances: (accountId, network) => Effect.sync(() => sim.wallets.balances(accountId, network)),
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

const notifier = Layer.effect(
  Notifier,
  SimulationState.useSync((sim) => ({
    send: (notification) => Effect.sync(() => sim.notify(notification))
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

/** Every port the simulation implements, and the test-key environment; requires `SimulationState`. */
export const layerPorts = Layer.mergeAll(
  priceFeed,
  chain,
  wallets,
  orderSigner,
  notifier,
  domainEvents,
  ids,
  clock,
  secretHasher,
  // Keys created on the simulator are test keys: `sd_test_…`.
  Layer.succeed(ApiKeyEnvironment, "test")
)
