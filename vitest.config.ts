import { defineConfig } from "vitest/config"

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
      }
    ]
  }
})
