// Proves that the standalone server reads each setting by its name, with its default when unset or
// empty, accepts exactly the values it documents, keeps the secrets redacted, and refuses a bad
// value in the one line an operator reads: settings given through an environment ConfigProvider,
// in process (Process.test.ts starts the server itself with bad settings).
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import { ServerSettings, settingRefusal } from "../src/ServerSettings.ts"

const read = (env: Record<string, string>) =>
  Effect.result(ServerSettings.parse(ConfigProvider.fromEnv({ env }))).pipe(Effect.runSync)

const settings = (env: Record<string, string>) => {
  const result = read(env)
  if (result._tag === "Failure") return assert.fail(settingRefusal(result.failure))
  return result.success
}

const refusal = (env: Record<string, string>) => {
  const result = read(env)
  if (result._tag === "Success") return assert.fail(`accepted ${JSON.stringify(env)}`)
  return settingRefusal(result.failure)
}

describe("the server's settings", () => {
  it("take their defaults when unset or empty", () => {
    for (
      const env of [{}, {
        PORT: "",
        HOST: "",
        SCENARIO: "",
        LIVE_CONFIG: "",
        SIM_LOG_MAX: "",
        WEBHOOK_ALLOW_PRIVATE_URLS: "",
        LIVE_DROP_GRACE_SECONDS: ""
      }]
    ) {
      assert.deepStrictEqual(settings(env), {
        port: 3000,
        host: "127.0.0.1",
        scenario: undefined,
        liveConfig: undefined,
        logFormat: "text",
        logLevel: "Info",
        controlKey: undefined,
        logMax: undefined,
        corsOrigins: [],
        databaseUrl: undefined,
        allowPrivateUrls: true,
        liveDropGraceSeconds: 30
      })
    }
  })

  it("read each setting by its name, the secrets redacted", () => {
    const read = settings({
      PORT: "0",
      HOST: "0.0.0.0",
      SCENARIO: "./scenario.json",
      LIVE_CONFIG: "./live.json",
      LOG_FORMAT: "json",
      LOG_LEVEL: "debug",
      SIM_CONTROL_KEY: "control-secret",
      SIM_LOG_MAX: "10000000",
      CORS_ORIGINS: "https://app.example, http://localhost:5173",
      DATABASE_URL: "postgres://swapdesk:db-secret@127.0.0.1:5432/swapdesk",
      WEBHOOK_ALLOW_PRIVATE_URLS: "false",
      LIVE_DROP_GRACE_SECONDS: "120"
    })
    const { controlKey, databaseUrl, ...plain } = read
    assert.deepStrictEqual(plain, {
      port: 0,
      host: "0.0.0.0",
      scenario: "./scenario.json",
      liveConfig: "./live.json",
      logFormat: "json",
      logLevel: "Debug",
      logMax: 10_000_000,
      corsOrigins: ["https://app.example", "http://localhost:5173"],
      allowPrivateUrls: false,
      liveDropGraceSeconds: 120
    })
    assert.strictEqual(Redacted.value(controlKey!), "control-secret")
    assert.strictEqual(Redacted.value(databaseUrl!), "postgres://swapdesk:db-secret@127.0.0.1:5432/swapdesk")
    assert.notInclude(`${String(controlKey)} ${String(databaseUrl)} ${JSON.stringify(read)}`, "secret")
    assert.strictEqual(settings({ PORT: "65535", SIM_LOG_MAX: "1" }).port, 65_535)
    assert.strictEqual(settings({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" }).allowPrivateUrls, true)
  })

  it("refuse a value outside what each documents, in one line naming the setting and the value", () => {
    for (const port of ["abc", "70000", "1.5", "0x50", "8e3", " 80", "-1", "000080"]) {
      assert.strictEqual(
        refusal({ PORT: port }),
        `PORT must be an integer from 0 to 65535 (found ${JSON.stringify(port)})`
      )
    }
    for (const max of ["0", "ten", "10000001"]) {
      assert.strictEqual(
        refusal({ SIM_LOG_MAX: max }),
        `SIM_LOG_MAX must be an integer from 1 to 10000000 (found ${JSON.stringify(max)})`
      )
    }
    for (const grace of ["0", "3601", "2.5"]) {
      assert.strictEqual(
        refusal({ LIVE_DROP_GRACE_SECONDS: grace }),
        `LIVE_DROP_GRACE_SECONDS must be an integer from 1 to 3600 (found ${JSON.stringify(grace)})`
      )
    }
    assert.strictEqual(refusal({ LOG_FORMAT: "xml" }), `LOG_FORMAT must be text or json (found "xml")`)
    assert.strictEqual(
      refusal({ LOG_LEVEL: "loud" }),
      `LOG_LEVEL must be error, warn, info or debug (found "loud")`
    )
    for (const value of ["no", "yes", "1", "TRUE"]) {
      assert.strictEqual(
        refusal({ WEBHOOK_ALLOW_PRIVATE_URLS: value }),
        `WEBHOOK_ALLOW_PRIVATE_URLS must be true or false (found ${JSON.stringify(value)})`
      )
    }
    assert.strictEqual(
      refusal({ CORS_ORIGINS: "https://ok.example, https://app.example/path" }),
      `CORS_ORIGINS: "https://app.example/path" is not an origin (scheme://host[:port], http or https, no path)`
    )
  })

  it("report the first bad setting, in the order the server always read them", () => {
    assert.match(refusal({ PORT: "x", LOG_FORMAT: "y", SIM_LOG_MAX: "z" }), /^PORT /)
    assert.match(refusal({ LOG_FORMAT: "y", SIM_LOG_MAX: "z", CORS_ORIGINS: "w" }), /^LOG_FORMAT /)
    assert.match(refusal({ LOG_LEVEL: "y", SIM_LOG_MAX: "z", CORS_ORIGINS: "w" }), /^LOG_LEVEL /)
    assert.match(refusal({ SIM_LOG_MAX: "z", CORS_ORIGINS: "w", WEBHOOK_ALLOW_PRIVATE_URLS: "v" }), /^SIM_LOG_MAX /)
  })
})
