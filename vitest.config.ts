import { defineConfig } from "vitest/config"

/** The end-to-end tests, run once more against the second request path (docs/decisions.md, "Two request paths"). */
const endToEnd = "packages/server/test/**/*.test.ts"

export default defineConfig({
  test: {
    globalSetup: ["packages/web/test/buildInterface.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "ApiRoutes",
          include: ["packages/*/test/**/*.test.ts", "examples/test/**/*.test.ts", "test/**/*.test.ts"]
        }
      },
      {
        extends: true,
        test: { name: "HttpApiBuilder", include: [endToEnd], env: { REQUEST_PATH: "HttpApiBuilder" } }
      }
    ]
  }
})
