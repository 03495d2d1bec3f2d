/**
 * Whether the funds of a server's world are conserved, judged from the scenario and the records
 * alone: for each token, the sum over every wallet of free plus reserved balance equals what the
 * scenario gave, less what confirmed trades sent, plus what they received, less the gas the chain
 * burned (the `gas.burned` entries of the event log); each line's reserved balance is exactly the
 * input of its pending trades and open orders; and the wallet book's own invariants hold. The log
 * keeps its most recent `SIM_LOG_MAX` entries only, so a run must stay shorter than that.
 */
import { isOpen, type Network, parseAmount, simulatorCatalog } from "@swapdesk/core"
import type { ScenarioFile } from "@swapdesk/simulator"
import { Effect, Result } from "effect"
import type { World } from "./liveServer.ts"

const units = (amount: string, token: string): bigint => {
  const parsed = amount === "0" ? Result.succeed(0n) : parseAmount(amount, simulatorCatalog.tokenOf(token).decimals)
  if (Result.isFailure(parsed)) throw new Error(`${token} ${amount}: ${parsed.failure}`)
  return parsed.success
}

const lineKey = (accountId: string, network: Network, token: string) => `${accountId}/${network}/${token}`

const add = (map: Map<string, bigint>, key: string, amount: bigint) => map.set(key, (map.get(key) ?? 0n) + amount)

/** Every way the world's funds fail to balance; empty when they do. */
export const fundsProblems = (scenario: ScenarioFile, world: World): Effect.Effect<Array<string>> =>
  Effect.gen(function*() {
    const problems: Array<string> = []
    const { sim } = world
    try {
      sim.wallets.checkInvariants()
    } catch (error) {
      problems.push(String(error))
    }
    const expected = new Map<string, bigint>()
    const reservedExpected = new Map<string, bigint>()
    for (const account of scenario.accounts ?? []) {
      for (const wallet of account.wallets ?? []) {
        for (const [token, amount] of Object.entries(wallet.balances ?? {})) add(expected, token, units(amount, token))
      }
      for (const trade of yield* world.trades.history(account.id)) {
        const line = lineKey(trade.accountId, trade.network, trade.tokenIn)
        if (trade.stage === "confirmed") {
          add(expected, trade.tokenIn, -trade.amountIn)
          add(expected, trade.tokenOut, trade.amountOut!)
        } else if (trade.stage !== "failed") {
          add(reservedExpected, line, trade.amountIn)
        }
      }
      const orders = yield* world.orders.list(account.id, {}, { limit: 1_000_000, offset: 0 })
      for (const order of orders.items) {
        if (isOpen(order)) add(reservedExpected, lineKey(order.accountId, order.network, order.tokenIn), order.amountIn)
      }
    }
    for (const event of sim.log.all) {
      if (event.type === "gas.burned") {
        const token = String(event.data["token"])
        add(expected, token, -units(String(event.data["amount"]), token))
      }
    }
    const held = new Map<string, bigint>()
    const reserved = new Map<string, bigint>()
    for (const line of sim.wallets.ledger()) {
      add(held, line.token, line.free + line.reserved)
      add(reserved, lineKey(line.accountId, line.network, line.token), line.reserved)
    }
    for (const token of new Set([...expected.keys(), ...held.keys()])) {
      const want = expected.get(token) ?? 0n
      const got = held.get(token) ?? 0n
      if (want !== got) problems.push(`${token}: wallets hold ${got}, the records say ${want}`)
    }
    for (const line of new Set([...reservedExpected.keys(), ...reserved.keys()])) {
      const want = reservedExpected.get(line) ?? 0n
      const got = reserved.get(line) ?? 0n
      if (want !== got) problems.push(`${line}: ${got} reserved, pending trades and open orders hold ${want}`)
    }
    return problems
  })
