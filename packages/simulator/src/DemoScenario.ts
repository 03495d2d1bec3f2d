/**
 * The built-in demo scenario the server runs when no `SCENARIO` is given: a Free and a Pro account,
 * each with a full-access key and a read-only key, funded wallets on all four networks and
 * notification channels. The keys are public on purpose (README); they only ever open the simulator.
 */
import type { ScenarioFile } from "./Scenario.ts"

/** Pads a readable stem to a well-formed test key: `sd_test_` + 40 base62 characters. */
const demoKey = (stem: string): string => `sd_test_${stem.padEnd(40, "0")}`

export const demoKeys = {
  freeAll: demoKey("DemoFreeAllScopes"),
  freeRead: demoKey("DemoFreeReadOnly"),
  proAll: demoKey("DemoProAllScopes"),
  proRead: demoKey("DemoProReadOnly")
} as const

const allScopes = ["read", "trade", "alerts", "account"] as const

export const demoScenario: ScenarioFile = {
  seed: 42,
  clock: { mode: "realtime", start: "2026-01-01T00:00:00Z", speed: 1 },
  rateLimits: true,
  accounts: [
    {
      id: "acct_demo_free",
      plan: "free",
      apiKeys: [
        { name: "demo: all scopes", key: demoKeys.freeAll, scopes: allScopes },
        { name: "demo: read only", key: demoKeys.freeRead, scopes: ["read"] }
      ],
      notifications: { email: "free-trader@example.com", telegram: { chatId: "100200300" } },
      wallets: [
        {
          network: "solana",
          address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
          delegatedSigning: true,
          balances: { SOL: "25", USDC: "5000", BONK: "50000000", JUP: "800" }
        },
        {
          network: "ethereum",
          address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
          delegatedSigning: false,
          balances: { ETH: "2.5", USDC: "10000", USDT: "2500", WBTC: "0.05" }
        },
        {
          network: "base",
          address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
          delegatedSigning: true,
          balances: { ETH: "0.8", USDC: "3000" }
        },
        {
          network: "arbitrum",
          address: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
          delegatedSigning: true,
          balances: { ETH: "1.2", USDC: "4000", ARB: "1500" }
        }
      ]
    },
    {
      id: "acct_demo_pro",
      plan: "pro",
      apiKeys: [
        { name: "demo: all scopes", key: demoKeys.proAll, scopes: allScopes },
        { name: "demo: read only", key: demoKeys.proRead, scopes: ["read"] }
      ],
      notifications: {
        email: "pro-desk@example.com",
        telegram: { chatId: "900800700" },
        push: { deviceToken: "demo-device-token-pro" }
      },
      wallets: [
        {
          network: "solana",
          address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
          delegatedSigning: true,
          balances: { SOL: "500", USDC: "250000", JUP: "20000", WIF: "5000" }
        },
        {
          network: "ethereum",
          address: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B",
          delegatedSigning: true,
          balances: { ETH: "40", USDC: "500000", WBTC: "2", LINK: "3000", UNI: "4000" }
        },
        {
          network: "base",
          address: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B",
          delegatedSigning: true,
          balances: { ETH: "10", USDC: "100000", AERO: "20000" }
        },
        {
          network: "arbitrum",
          address: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B",
          delegatedSigning: false,
          balances: { ETH: "15", USDC: "150000", ARB: "50000", GMX: "500" }
        }
      ]
    }
  ]
}
