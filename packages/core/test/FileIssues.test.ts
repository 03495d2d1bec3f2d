// Proves the report of a file that cannot be used (a scenario, a live configuration): each line
// names the path (`(root)` for the whole file), the message and the value found there as JSON,
// `nothing` for a missing field and no value at all for text that is not JSON; a schema failure
// is reported with the value at each path; and `InvalidFile` heads the lines with what the file is.
import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { describeFileIssue, fileIssuesOf, InvalidFile } from "../src/Validation.ts"

const Settings = Schema.Struct({ name: Schema.String, rate: Schema.Number })

const issuesOf = (input: unknown) => {
  const decoded = Schema.decodeUnknownResult(Settings)(input, { errors: "all" })
  assert.isTrue(Result.isFailure(decoded))
  return Result.isFailure(decoded) ? fileIssuesOf(decoded.failure.issue, input) : []
}

describe("file issues", () => {
  it("describes a line with the value found, nothing for a missing field, none for text that is not JSON", () => {
    assert.strictEqual(
      describeFileIssue({ path: "rate", message: "Expected number", value: "fast" }),
      `  rate: Expected number (found "fast")`
    )
    assert.strictEqual(
      describeFileIssue({ path: "name", message: "Missing key", value: undefined }),
      "  name: Missing key (found nothing)"
    )
    assert.strictEqual(describeFileIssue({ path: "", message: "is not JSON" }), "  (root): is not JSON")
  })

  it("reports every schema problem with the value at its path", () => {
    const issues = issuesOf({ rate: "fast" })
    assert.deepStrictEqual(issues.map((issue) => [issue.path, "value" in issue, issue.value]), [
      ["name", true, undefined],
      ["rate", true, "fast"]
    ])
  })

  it("heads the report with what the file is, one line per problem", () => {
    const error = new InvalidFile("settings", issuesOf({ name: 1, rate: 2 }))
    assert.strictEqual(error.message.split("\n")[0], "invalid settings:")
    assert.strictEqual(error.message.split("\n")[1], "  name: Expected string (found 1)")
    assert.strictEqual(error.issues.length, 1)
  })
})
