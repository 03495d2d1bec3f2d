// Proves the JSON Schema published for scenario files (`@swapdesk/simulator/scenario.schema.json`,
// for editors' completion and checks) is the one derived from `ScenarioFile`, the schema
// `decodeScenario` applies, and that it refuses unknown keys as the decoder does, while a scenario
// may name it in `$schema`. After a change to the scenario schema: UPDATE_SCENARIO_SCHEMA=1 pnpm test:unit.
import { assert, describe, it } from "@effect/vitest"
import { decodeScenario, demoScenario, ScenarioFile } from "@swapdesk/simulator"
import { Schema } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const schemaPath = fileURLToPath(new URL("../scenario.schema.json", import.meta.url))
const manifest = JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"))

const derived = () => {
  const document = Schema.toJsonSchemaDocument(ScenarioFile, { onExcessProperty: "error" })
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "swapdesk scenario",
    description: "A scenario file for the swapdesk simulator (docs/simulator.md). It gives the keys, types and " +
      "ranges; the simulator's decoder is the final authority, and alone checks the format of dates, account ids " +
      "and API keys.",
    ...document.schema,
    ...(Object.keys(document.definitions).length === 0 ? {} : { $defs: document.definitions })
  }
}

describe("scenario JSON Schema", () => {
  it("is the committed scenario.schema.json, exported by the package", () => {
    const text = JSON.stringify(derived(), null, 2) + "\n"
    if (process.env["UPDATE_SCENARIO_SCHEMA"] === "1") writeFileSync(schemaPath, text)
    assert.strictEqual(text, readFileSync(schemaPath, "utf8"), "run UPDATE_SCENARIO_SCHEMA=1 pnpm test:unit")
    assert.strictEqual(manifest.exports["./scenario.schema.json"], "./scenario.schema.json")
    assert.strictEqual(manifest.publishConfig.exports["./scenario.schema.json"], "./scenario.schema.json")
    assert.include(manifest.files, "scenario.schema.json")
  })

  it("refuses unknown keys, and knows every key of the demo scenario and $schema", () => {
    const schema = derived() as unknown as { additionalProperties?: unknown; properties: Record<string, unknown> }
    assert.strictEqual(schema.additionalProperties, false)
    for (const key of [...Object.keys(demoScenario), "$schema"]) assert.property(schema.properties, key)
    const withSchema = decodeScenario({ $schema: "./node_modules/@swapdesk/simulator/scenario.schema.json", seed: 1 })
    assert.strictEqual(withSchema.seed, 1)
  })
})
