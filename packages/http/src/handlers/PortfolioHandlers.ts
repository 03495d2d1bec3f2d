/**
 * `/v1/portfolio` on the `Portfolio` use case, for the calling account.
 */
import { Portfolio } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { forAccount, makeResponder } from "./Responder.ts"

/** `PortfolioApi` on the `Portfolio` use case. */
export const PortfolioHandlers = ApiHandlers.group(Api, "portfolio", (handlers) =>
  Effect.gen(function*() {
    const { ok } = yield* makeResponder
    const portfolio = yield* Portfolio
    return handlers.handle("get", ({ query }) =>
      forAccount((account) => Effect.flatMap(portfolio.get(account, query), (view) => ok(view))))
  }))
