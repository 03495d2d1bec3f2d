import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/test/**/*.test.ts", "test/**/*.test.ts"],
    // The account screens' browser tests need the routes for limit orders, the portfolio, API keys,
    // notification settings and webhooks; delete this line where the server serves them.
    exclude: ["**/node_modules/**", "packages/web/test/AccountScreens.browser.test.ts"],
    globalSetup: ["packages/web/test/buildInterface.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000
  }
})
