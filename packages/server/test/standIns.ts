/**
 * Real local stand-ins for the services outside swapdesk, started by the tests on 127.0.0.1 port 0:
 * an SMTP server (smtp-server from npm) that keeps the mail it receives, one HTTP server playing
 * Telegram's Bot API, Google's OAuth token endpoint and FCM HTTP v1, and a webhook receiver. Each
 * records what it received and can be told to fail or to hang, so that tests see what swapdesk
 * really sent over the wire.
 */
import { Effect } from "effect"
import { createPublicKey, generateKeyPairSync, verify } from "node:crypto"
import { writeFileSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SMTPServer } from "smtp-server"

const portOf = (server: { address(): AddressInfo | string | null }) => (server.address() as AddressInfo).port

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (text += chunk))
    request.on("end", () => resolve(text))
  })

const listen = (server: Server) =>
  Effect.acquireRelease(
    Effect.callback<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
    () =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const answer = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

/** How a stand-in answers its next requests. */
export type Behaviour =
  | { readonly _tag: "ok" }
  /** Fails the next `times` requests with `status`, then answers normally. */
  | { readonly _tag: "fail"; times: number; readonly status: number }
  /** Holds every request open until `release` is called. */
  | { readonly _tag: "hang" }

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

/** An SMTP server that accepts any mail, without TLS or authentication, and keeps it. */
export const smtpStandIn = Effect.gen(function*() {
  const mails: Array<ReceivedMail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = ""
      stream.setEncoding("utf8")
      stream.on("data", (chunk: string) => (raw += chunk))
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw
        })
        callback()
      })
    }
  })
  yield* Effect.acquireRelease(
    Effect.callback<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
    () => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
  )
  return { url: `smtp://127.0.0.1:${portOf(server.server)}`, mails }
})

export interface ReceivedRequest {
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** One HTTP server playing the Telegram Bot API, the OAuth token endpoint and FCM HTTP v1. */
export const providersStandIn = Effect.gen(function*() {
  const botToken = "123456:TEST-token"
  const projectId = "swapdesk-test"
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const telegram: Array<ReceivedRequest> = []
  const tokenRequests: Array<ReceivedRequest> = []
  const fcm: Array<ReceivedRequest> = []
  const state = { telegram: { _tag: "ok" } as Behaviour, held: [] as Array<() => void> }
  const accessToken = "ya29.test-access-token"

  /** Checks a jwt-bearer assertion as Google would: RS256 over the service account's public key. */
  const validAssertion = (assertion: string): boolean => {
    const [header, claims, signature] = assertion.split(".")
    if (header === undefined || claims === undefined || signature === undefined) return false
    const signed = verify(
      "RSA-SHA256",
      Buffer.from(`${header}.${claims}`),
      createPublicKey(publicKey.export({ type: "spki", format: "pem" })),
      Buffer.from(signature, "base64url")
    )
    const payload = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as Record<string, unknown>
    return signed && payload["scope"] === "https://www.googleapis.com/auth/firebase.messaging" &&
      payload["iss"] === "alerts@swapdesk-test.iam.gserviceaccount.com"
  }

  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = request.url ?? ""
      const received = { path, headers: request.headers, body }
      if (path === `/bot${botToken}/sendMessage`) {
        telegram.push(received)
        const behaviour = state.telegram
        if (behaviour._tag === "hang") return void state.held.push(() => answer(response, 200, { ok: true }))
        if (behaviour._tag === "fail" && behaviour.times > 0) {
          behaviour.times--
          return answer(response, behaviour.status, {
            ok: false,
            error_code: behaviour.status,
            description: "stand-in failure"
          })
        }
        return answer(response, 200, { ok: true, result: { message_id: telegram.length } })
      }
      if (path === "/token") {
        tokenRequests.push(received)
        const form = new URLSearchParams(body)
        if (
          form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer" ||
          !validAssertion(form.get("assertion") ?? "")
        ) {
          return answer(response, 400, { error: "invalid_grant", error_description: "bad assertion" })
        }
        return answer(response, 200, { access_token: accessToken, expires_in: 3599, token_type: "Bearer" })
      }
      if (path === `/v1/projects/${projectId}/messages:send`) {
        fcm.push(received)
        if (request.headers.authorization !== `Bearer ${accessToken}`) return answer(response, 401, { error: {} })
        return answer(response, 200, { name: `projects/${projectId}/messages/${fcm.length}` })
      }
      answer(response, 404, {})
    })
  })
  yield* listen(server)
  const base = `http://127.0.0.1:${portOf(server)}`
  const serviceAccountFile = join(tmpdir(), `swapdesk-sa-${process.pid}-${portOf(server)}.json`)
  writeFileSync(
    serviceAccountFile,
    JSON.stringify({
      type: "service_account",
      project_id: projectId,
      private_key_id: "key-1",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
      client_email: "alerts@swapdesk-test.iam.gserviceaccount.com",
      token_uri: `${base}/token`
    })
  )
  return {
    base,
    botToken,
    serviceAccountFile,
    telegram,
    tokenRequests,
    fcm,
    setTelegram: (behaviour: Behaviour) => void (state.telegram = behaviour),
    /** Answers every held request. */
    release: () => state.held.splice(0).forEach((respond) => respond()),
    heldCount: () => state.held.length
  }
})

/** A webhook receiver: records each delivery, answering `statuses` in turn (200 once they run out). */
export const webhookReceiver = Effect.gen(function*() {
  const received: Array<ReceivedRequest> = []
  const statuses: Array<number> = []
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      received.push({ path: request.url ?? "", headers: request.headers, body })
      response.writeHead(statuses.shift() ?? 200)
      response.end()
    })
  })
  yield* listen(server)
  return { url: `http://127.0.0.1:${portOf(server)}/hooks`, received, statuses }
})

/** Waits, on the real clock, until `done` holds (checked every 20 ms, for at most 10 s). */
export const eventually = (what: string, done: () => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500; i++) {
      if (done()) return
      yield* Effect.sleep("20 millis")
    }
    throw new Error(`still waiting for ${what}`)
  })
