// Proves that an endpoint's memory of decoded queries and path ids is bounded
// (docs/performance.md#memory): it remembers at most REMEMBERED_QUERIES texts, forgetting the oldest
// first, never a text longer than REMEMBERED_QUERY_LENGTH, and never a failure; and that a path is
// keyed by its one parameter's value only. A real schema decoder is wrapped with a counter of how
// often it ran, so what is answered from memory shows as a decode that did not happen.
import { assert, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import {
  type Decoder,
  paramsTextReader,
  REMEMBERED_QUERIES,
  REMEMBERED_QUERY_LENGTH,
  rememberingQueries
} from "../../src/requestPath/RememberedQueries.ts"

const Query = Schema.Struct({ token: Schema.String })

/** A decoder of `Query` that counts its runs. */
const counted = () => {
  const decodeQuery = Schema.decodeUnknownEffect(Query)
  const runs = { count: 0 }
  const decode: Decoder = (input) => {
    runs.count++
    return decodeQuery(input)
  }
  return { decode, runs }
}

const queryOf = (token: string) => ({ text: `token=${token}`, params: { token } })

it.effect("remembers at most REMEMBERED_QUERIES texts, forgetting the oldest first", () =>
  Effect.gen(function*() {
    const { decode, runs } = counted()
    const remembering = rememberingQueries(decode)
    for (let i = 0; i < REMEMBERED_QUERIES; i++) yield* remembering(queryOf(`T${i}`))
    assert.strictEqual(runs.count, REMEMBERED_QUERIES)
    // All of them are remembered: a second pass decodes nothing.
    for (let i = 0; i < REMEMBERED_QUERIES; i++) {
      assert.deepStrictEqual(yield* remembering(queryOf(`T${i}`)), { token: `T${i}` })
    }
    assert.strictEqual(runs.count, REMEMBERED_QUERIES)
    // One more text pushes the oldest out: it is decoded again; the newest ones are not.
    yield* remembering(queryOf("extra"))
    yield* remembering(queryOf(`T${REMEMBERED_QUERIES - 1}`))
    assert.strictEqual(runs.count, REMEMBERED_QUERIES + 1)
    yield* remembering(queryOf("T0"))
    assert.strictEqual(runs.count, REMEMBERED_QUERIES + 2)
  }))

it.effect("never remembers a long text or a failure", () =>
  Effect.gen(function*() {
    const { decode, runs } = counted()
    const remembering = rememberingQueries(decode)
    const long = "x".repeat(REMEMBERED_QUERY_LENGTH)
    for (let i = 0; i < 3; i++) yield* remembering(queryOf(long))
    assert.strictEqual(runs.count, 3)
    for (let i = 0; i < 3; i++) yield* Effect.flip(remembering({ text: "token", params: {} }))
    assert.strictEqual(runs.count, 6)
  }))

it("keys path parameters by the value of the route's one parameter, and nothing else", () => {
  const one = paramsTextReader()
  assert.strictEqual(one({ id: "trd_1" }), "trd_1")
  assert.strictEqual(one({ id: "" }), "")
  assert.strictEqual(one({ id: undefined }), undefined)
  const none = paramsTextReader()
  assert.strictEqual(none({}), undefined)
  const two = paramsTextReader()
  assert.strictEqual(two({ a: "1", b: "2" }), undefined)
})

it.effect("remembers decoded path ids, each shared and frozen", () =>
  Effect.gen(function*() {
    const decodeId = Schema.decodeUnknownEffect(Schema.Struct({ id: Schema.String }))
    const runs = { count: 0 }
    const remembering = rememberingQueries((input) => {
      runs.count++
      return decodeId(input)
    })
    const textOf = paramsTextReader()
    const idOf = (id: string) => ({ text: textOf({ id }), params: { id } })
    const first = yield* remembering(idOf("trd_1"))
    const again = yield* remembering(idOf("trd_1"))
    const other = yield* remembering(idOf("trd_2"))
    assert.strictEqual(runs.count, 2)
    assert.strictEqual(again, first)
    assert.isTrue(Object.isFrozen(again))
    assert.deepStrictEqual(other, { id: "trd_2" })
  }))
