// Proves DATABASE_URL as an operator uses it, in real child processes: on a SQLite file
// (DatabasePostgres.test.ts does the same on PostgreSQL) an alert created over
// HTTP is a row in the database; a second server on the same database exits 1 saying another server
// uses it; once the first is gone, a start on its records restores them (the alert is listed);
// and a DATABASE_URL of another kind, or one that cannot be reached, exits 1 naming it (its
// password hidden).
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { describe, expect, it } from "vitest"
import { ownership, refused, workDir } from "./databaseServer.ts"

describe("DATABASE_URL", () => {
  it("keeps records in a SQLite file that one server at a time may use", async () => {
    const file = join(workDir, "swapdesk.db")
    await ownership(`sqlite:${file}`, async () => {
      const db = new DatabaseSync(file, { readOnly: true })
      try {
        return db.prepare("SELECT id FROM swapdesk_alerts").all().map((row) => String(row["id"]))
      } finally {
        db.close()
      }
    })
  })

  it("refuses a URL of another kind, and one it cannot reach, naming it without its password", async () => {
    const other = await refused("mysql://root@127.0.0.1/swapdesk")
    expect(other.code).toBe(1)
    expect(other.output).toMatch(/DATABASE_URL must be sqlite:<file path> or postgres:\/\//)
    const unreachable = await refused("postgres://someone:s3cret@127.0.0.1:1/swapdesk")
    expect(unreachable.code).toBe(1)
    expect(unreachable.output).toMatch(
      /DATABASE_URL postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/swapdesk: cannot open it/
    )
    expect(unreachable.output).not.toMatch(/s3cret/)
  })
})
