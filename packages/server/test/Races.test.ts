// Proves what the contract promises when requests race, over HTTP against a real server on port 0
// (keep-alive connections, every request of a race written before any answer is read): 100 concurrent
// duplicates of one Idempotency-Key on POST /v1/orders make one order, every 201 the same order and
// every other answer the transient IDEMPOTENCY_CONFLICT, and a later retry replays it; a cancellation
// (DELETE /v1/orders/{id}) racing the price move that fills the order (PUT /v1/sim/prices/SOL), or
// the clock advance that expires it, has exactly one winner, round after round, and the funds balance
// afterwards (conservation.ts); and once the answer to a key's revocation has arrived, no request
// using the key passes, while uses in flight around it get either answer. Concurrency.test.ts covers
// trades and the Free plan's alert limit.
import { assert, layer } from "@effect/vitest"
import { MoneyDecimal } from "@swapdesk/core"
import { Effect } from "effect"
import { fundsProblems } from "./conservation.ts"
import { advance, call, keys, testScenario } from "./harness.ts"
import { liveServer, portOf } from "./liveServer.ts"
import { rawClient, type RawReply } from "./rawClient.ts"

const server = liveServer(testScenario)

const all = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

/** A raw client on the server, closed with the test's scope. */
const connect = (sockets: number) =>
  Effect.acquireRelease(
    Effect.sync(() => rawClient(portOf(server.world()), sockets)),
    (client) => Effect.sync(client.close)
  )

const json = (key: string, body?: unknown) => ({
  authorization: `Bearer ${key}`,
  ...(body === undefined ? {} : { "content-type": "application/json" })
})

const solPrice = Effect.map(
  call("GET", "/v1/market-data?token=SOL"),
  (reply) => new MoneyDecimal(reply.body.data.price as number)
)

layer(server.layer, { excludeTestServices: true })("races over HTTP", (it) => {
  it.effect("100 concurrent duplicates of one Idempotency-Key on POST /v1/orders make one order", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* connect(100)
      const before = (yield* call("GET", "/v1/orders?limit=1", { key: keys.bobAll })).body.data.total
      const body = JSON.stringify({
        tokenIn: "USDC",
        tokenOut: "SOL",
        amountIn: "7",
        minAmountOut: "1000",
        network: "solana"
      })
      const request = {
        method: "POST",
        path: "/v1/orders",
        headers: { ...json(keys.bobAll, {}), "idempotency-key": "race-order-1" },
        body
      }
      const replies = yield* all(Array.from({ length: 100 }, () => client.send(request)))
      const created = replies.filter((r) => r.status === 201)
      assert.isAbove(created.length, 0)
      for (const reply of replies) {
        if (reply.status === 201) assert.deepStrictEqual(reply.json.data, created[0]!.json.data, "the same order")
        else {
          assert.strictEqual(reply.status, 409, reply.text)
          assert.strictEqual(reply.json.error.code, "IDEMPOTENCY_CONFLICT")
        }
      }
      const after = (yield* call("GET", "/v1/orders?limit=1", { key: keys.bobAll })).body.data.total
      assert.strictEqual(after, before + 1, "exactly one order")
      // Once the first has finished, a retry replays it; the order reserved its amount once.
      const retry = yield* client.send(request)
      assert.strictEqual(retry.status, 201)
      assert.strictEqual(retry.headers["idempotent-replayed"], "true")
      assert.deepStrictEqual(retry.json.data, created[0]!.json.data)
      const world = server.world()
      const order = world.sim.wallets.hold(created[0]!.json.data.id)
      assert.strictEqual(order?.amount, 7_000_000n, "one hold of 7 USDC")
      assert.deepStrictEqual(yield* fundsProblems(testScenario, world), [])
    })))

  it.effect("a cancellation racing the fill of one order: exactly one wins, every round; funds balance", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* connect(4)
      const wins = { cancel: 0, fill: 0 }
      const outcomes = new Map<string, "cancel" | "fill">()
      for (let round = 0; round < 30; round++) {
        const price = yield* solPrice
        // Fills once SOL is 5% above its price now.
        const minAmountOut = price.mul("0.1").mul("1.05").toDecimalPlaces(6, MoneyDecimal.ROUND_UP).toFixed()
        const placed = yield* call("POST", "/v1/orders", {
          key: keys.bobAll,
          body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.1", minAmountOut, network: "solana" }
        })
        assert.strictEqual(placed.status, 201, placed.text)
        const id: string = placed.body.data.id
        const cancel = client.send({ method: "DELETE", path: `/v1/orders/${id}`, headers: json(keys.bobAll) })
        const move = client.send({
          method: "PUT",
          path: "/v1/sim/prices/SOL",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ price: price.mul("1.2").toNumber() })
        })
        // Either request first on the wire, half the rounds each.
        const [cancelled, moved]: readonly [RawReply, RawReply] = round % 2 === 0
          ? yield* Effect.all([cancel, move], { concurrency: "unbounded" })
          : yield* Effect.map(Effect.all([move, cancel], { concurrency: "unbounded" }), ([m, c]) => [c, m] as const)
        assert.strictEqual(moved.status, 200, moved.text)
        const order = (yield* call("GET", `/v1/orders/${id}`, { key: keys.bobAll })).body.data
        if (cancelled.status === 200) {
          assert.strictEqual(cancelled.json.data.status, "cancelled")
          wins.cancel++
          outcomes.set(id, "cancel")
          assert.strictEqual(order.status, "cancelled")
          assert.isNull(order.tradeId ?? null, "a cancelled order never fills")
        } else {
          wins.fill++
          outcomes.set(id, "fill")
          assert.strictEqual(cancelled.status, 409, cancelled.text)
          assert.strictEqual(cancelled.json.error.code, "ORDER_NOT_CANCELLABLE")
          assert.isString(order.tradeId, "the cancellation lost to a fill")
        }
        // Back to where it was, for the next round.
        yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: price.toNumber() } })
      }
      assert.strictEqual(wins.cancel + wins.fill, 30)
      yield* advance(10 * 60_000)
      const world = server.world()
      assert.deepStrictEqual(yield* fundsProblems(testScenario, world), [])
      // Each order the cancellation lost was filled by exactly one trade; the others by none.
      const history = yield* world.trades.history("acct_bob")
      for (const [id, won] of outcomes) {
        const fills = history.filter((t) => t.orderId === id)
        assert.lengthOf(fills, won === "fill" ? 1 : 0, `${id}, which the ${won} won`)
      }
      assert.isAbove(wins.cancel, 0, `the cancellation won some rounds: ${JSON.stringify(wins)}`)
      assert.isAbove(wins.fill, 0, `the fill won some rounds: ${JSON.stringify(wins)}`)
    })))

  it.effect("a cancellation racing the clock advance that expires the order: exactly one wins, every round", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* connect(4)
      const wins = { cancel: 0, expiry: 0 }
      for (let round = 0; round < 20; round++) {
        const now = Date.parse((yield* call("GET", "/v1/sim/clock")).body.data.now)
        const placed = yield* call("POST", "/v1/orders", {
          key: keys.bobAll,
          // Never fills: it asks for a thousand times the market's output.
          body: {
            tokenIn: "SOL",
            tokenOut: "USDC",
            amountIn: "0.1",
            minAmountOut: "100000",
            network: "solana",
            expiresAt: new Date(now + 1_000).toISOString()
          }
        })
        assert.strictEqual(placed.status, 201, placed.text)
        const id: string = placed.body.data.id
        const cancel = client.send({ method: "DELETE", path: `/v1/orders/${id}`, headers: json(keys.bobAll) })
        const tick = client.send({
          method: "POST",
          path: "/v1/sim/clock/advance",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ms: 2_000 })
        })
        const [cancelled, ticked]: readonly [RawReply, RawReply] = round % 2 === 0
          ? yield* Effect.all([cancel, tick], { concurrency: "unbounded" })
          : yield* Effect.map(Effect.all([tick, cancel], { concurrency: "unbounded" }), ([t, c]) => [c, t] as const)
        assert.strictEqual(ticked.status, 200, ticked.text)
        const order = (yield* call("GET", `/v1/orders/${id}`, { key: keys.bobAll })).body.data
        if (cancelled.status === 200) {
          wins.cancel++
          assert.strictEqual(order.status, "cancelled")
        } else {
          wins.expiry++
          assert.strictEqual(cancelled.status, 409, cancelled.text)
          assert.strictEqual(cancelled.json.error.code, "ORDER_NOT_CANCELLABLE")
          assert.strictEqual(order.status, "expired")
        }
        assert.isUndefined(server.world().sim.wallets.hold(id), "a closed order holds nothing")
      }
      assert.strictEqual(wins.cancel + wins.expiry, 20)
      assert.deepStrictEqual(yield* fundsProblems(testScenario, server.world()), [])
    })))

  it.effect("once a key's revocation has answered, no request using the key passes", () =>
    Effect.scoped(Effect.gen(function*() {
      const client = yield* connect(16)
      for (let round = 0; round < 5; round++) {
        const created = yield* call("POST", "/v1/auth/api-keys", {
          key: keys.bobAll,
          body: { name: `race ${round}`, scopes: ["read"] }
        })
        assert.strictEqual(created.status, 201, created.text)
        const secret: string = created.body.data.key
        const id: string = created.body.data.id
        let revoked = false
        const uses: Array<{ afterRevocation: boolean; status: number }> = []
        const use = Effect.gen(function*() {
          const afterRevocation = revoked
          const reply = yield* client.send({ method: "GET", path: "/v1/trades?limit=1", headers: json(secret) })
          uses.push({ afterRevocation, status: reply.status })
        })
        // Uses keep going on 15 connections before, around and after the revocation: each goes on
        // until it has sent five after the revocation answered.
        const user = Effect.gen(function*() {
          let after = 0
          while (after < 5) {
            if (revoked) after++
            yield* use
          }
        })
        const users = all(Array.from({ length: 15 }, () => user))
        const revoke = Effect.gen(function*() {
          // Later in each round: after 15, 30, ... uses have been answered.
          while (uses.length < 15 * (round + 1)) yield* Effect.sleep("1 millis")
          const reply = yield* client.send({
            method: "DELETE",
            path: `/v1/auth/api-keys/${id}`,
            headers: json(keys.bobAll)
          })
          assert.strictEqual(reply.status, 204, reply.text)
          revoked = true
        })
        yield* all([users, revoke])
        // And after everything, once more.
        uses.push({
          afterRevocation: true,
          status: (yield* client.send({
            method: "GET",
            path: "/v1/trades?limit=1",
            headers: json(secret)
          })).status
        })
        for (const { afterRevocation, status } of uses) {
          assert.include([200, 401], status)
          if (afterRevocation) assert.strictEqual(status, 401, "a use sent after the revocation answered passed")
        }
        assert.isAtLeast(uses.filter((u) => u.afterRevocation).length, 75, "uses were sent after the revocation")
        assert.isAbove(uses.filter((u) => u.status === 200).length, 0, "some uses passed before it")
      }
    })))
})
