// Proves `live:deploy` on two real nodes (anvil with chain ids 1 and 8453, Uniswap V2 from its
// published artifacts): it deploys SwapdeskRouter where the live file has none, with the file's
// router, WETH and fee recipient, the executor derived from each network's executorKeyEnv and the
// deployer as owner, and writes only networks.<name>.contracts.swapdeskRouter (the rest of the file
// byte-identical, same indentation, no temporary file left). Run again as the real command
// (`node packages/evm/src/deploy/main.ts`), it sends nothing: the deployer's nonce is unchanged.
// A missing DEPLOYER_KEY or executor variable stops it before any network is contacted, naming the
// variable and never printing a key; a network with another chain id or no node is reported down
// and gets nothing while the others are deployed; a bad file is refused one line per field.
import { ConfigProvider, Effect, Exit } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Address, getAddress, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  deploymentSucceeded,
  liveDeploy,
  type LiveDeployReport,
  type NetworkDeployment
} from "../src/deploy/LiveDeploy.ts"
import {
  type Anvil,
  deployDemoToken,
  deployUniswapV2,
  devAccount,
  devnetClient,
  startAnvil
} from "../src/devnet/index.ts"
import { swapdeskRouterAbi } from "../src/index.ts"

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url))
const command = join(repoRoot, "packages/evm/src/deploy/main.ts")

// anvil's first dev account (public test key): funded on every node.
const deployerKey: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
const deployer = privateKeyToAccount(deployerKey).address
const executorKeys = { ethereum: generatePrivateKey(), base: generatePrivateKey() }
const feeRecipient = getAddress("0x000000000000000000000000000000000000fee1")

interface Node {
  readonly anvil: Anvil
  readonly network: Record<string, unknown>
}

let directory: string
let nodes: { ethereum: Node; base: Node }

const startNode = async (chainId: number, name: "ethereum" | "base"): Promise<Node> => {
  const anvil = await startAnvil({ chainId })
  // Uniswap from another dev account, so the deployer's nonce counts only what live:deploy sends.
  const client = devnetClient(anvil.rpcUrl, chainId, devAccount(1))
  const uniswap = await deployUniswapV2(client)
  const usdc = await deployDemoToken(client, { name: "USD Coin", symbol: "USDC", decimals: 6 })
  return {
    anvil,
    network: {
      rpcUrl: anvil.rpcUrl,
      chainId,
      confirmations: 2,
      startBlock: 0,
      dex: { kind: "uniswap-v2", factory: uniswap.factory, router: uniswap.router, weth: uniswap.weth },
      quoteToken: "USDC",
      feeRecipient,
      executorKeyEnv: `SWAPDESK_EXECUTOR_KEY_${name.toUpperCase()}`,
      tokens: [{ symbol: "USDC", address: usdc, decimals: 6 }, { symbol: "WETH", address: uniswap.weth, decimals: 18 }]
    }
  }
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "swapdesk-live-deploy-"))
  const [ethereum, base] = await Promise.all([startNode(1, "ethereum"), startNode(8453, "base")])
  nodes = { ethereum, base }
})

afterAll(async () => {
  await Promise.all([nodes?.ethereum.anvil.stop(), nodes?.base.anvil.stop()])
  await rm(directory, { recursive: true, force: true })
})

const liveFile = (networks: Record<string, unknown>) => ({
  $schema: "./live.schema.json",
  networks,
  accounts: [{
    id: "acct_live",
    plan: "pro",
    apiKeys: [{ name: "bot", keyHash: "a".repeat(64), scopes: ["read", "trade"] }],
    wallets: [{ network: Object.keys(networks)[0], address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }],
    notifications: { email: "ops@example.com" }
  }]
})

let fileCount = 0
const writeLiveFile = async (content: unknown, indent: number | string = 2) => {
  const path = join(directory, `live-${fileCount++}.json`)
  await writeFile(path, JSON.stringify(content, null, indent) + "\n")
  return path
}

const baseEnv = (path: string): Record<string, string> => ({
  LIVE_CONFIG: path,
  DEPLOYER_KEY: deployerKey,
  SWAPDESK_EXECUTOR_KEY_ETHEREUM: executorKeys.ethereum,
  SWAPDESK_EXECUTOR_KEY_BASE: executorKeys.base
})

const runInProcess = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    liveDeploy({ timeoutMs: 2_000 }).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))
  )

const deployed = async (env: Record<string, string>): Promise<LiveDeployReport> => {
  const exit = await runInProcess(env)
  if (Exit.isFailure(exit)) throw new Error(`live:deploy failed: ${String(exit.cause)}`)
  return exit.value
}

const runCommand = (env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const { PATH, HOME, NODE_COMPILE_CACHE } = process.env
    execFile(
      process.execPath,
      [command],
      { cwd: repoRoot, env: { PATH, HOME, NODE_COMPILE_CACHE, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr })
    )
  })

const nonceOf = (node: Node) =>
  devnetClient(node.anvil.rpcUrl, node.anvil.chainId, devAccount(1)).getTransactionCount({ address: deployer })

const read = (node: Node, address: Address, functionName: "executor" | "owner" | "feeRecipient" | "router" | "weth") =>
  devnetClient(node.anvil.rpcUrl, node.anvil.chainId, devAccount(1)).readContract({
    address,
    abi: swapdeskRouterAbi,
    functionName
  })

const outcomeOf = (report: LiveDeployReport, network: string): NetworkDeployment | undefined =>
  report.networks.find((n) => n.network === network)

describe("live:deploy", () => {
  it("deploys where the file lacks the contract, records only the address, and a second run sends nothing", async () => {
    const original = liveFile({ ethereum: nodes.ethereum.network, base: nodes.base.network })
    const path = await writeLiveFile(original)

    const report = await deployed(baseEnv(path))
    expect(deploymentSucceeded(report)).toBe(true)
    const ethereum = outcomeOf(report, "ethereum")
    const base = outcomeOf(report, "base")
    if (ethereum?._tag !== "Deployed" || base?._tag !== "Deployed") throw new Error("both networks should deploy")

    for (const [name, outcome] of [["ethereum", ethereum], ["base", base]] as const) {
      const node = nodes[name]
      const code = await devnetClient(node.anvil.rpcUrl, node.anvil.chainId, devAccount(1)).getCode({
        address: outcome.address
      })
      expect(code?.length ?? 0).toBeGreaterThan(2)
      expect(await read(node, outcome.address, "executor")).toBe(privateKeyToAccount(executorKeys[name]).address)
      expect(await read(node, outcome.address, "owner")).toBe(deployer)
      expect(await read(node, outcome.address, "feeRecipient")).toBe(feeRecipient)
      const dex = node.network["dex"] as { router: Address; weth: Address }
      expect(await read(node, outcome.address, "router")).toBe(getAddress(dex.router))
      expect(await read(node, outcome.address, "weth")).toBe(getAddress(dex.weth))
    }
    // Only the one key was added: the file is what it was plus contracts.swapdeskRouter, byte for byte.
    const expected = structuredClone(original) as { networks: Record<string, Record<string, unknown>> }
    expected.networks["ethereum"]!["contracts"] = { swapdeskRouter: ethereum.address }
    expected.networks["base"]!["contracts"] = { swapdeskRouter: base.address }
    const written = await readFile(path, "utf8")
    expect(written).toBe(JSON.stringify(expected, null, 2) + "\n")
    expect((await readdir(directory)).filter((f) => f.includes(".tmp"))).toEqual([])

    // Second run, as the real command: nothing sent, the file untouched, and it says so.
    const nonces = await Promise.all([nonceOf(nodes.ethereum), nonceOf(nodes.base)])
    const again = await runCommand(baseEnv(path))
    expect(again.stderr).toBe("")
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(
      `ethereum: already deployed at ${ethereum.address}\n` +
        `base: already deployed at ${base.address}\n` +
        "nothing deployed\n"
    )
    expect(await Promise.all([nonceOf(nodes.ethereum), nonceOf(nodes.base)])).toEqual(nonces)
    expect(await readFile(path, "utf8")).toBe(written)
  })

  it("keeps a file's tab indentation and fills an empty contracts object", async () => {
    const original = liveFile({ base: { ...nodes.base.network, contracts: {} } })
    const path = await writeLiveFile(original, "\t")
    const report = await deployed(baseEnv(path))
    const base = outcomeOf(report, "base")
    if (base?._tag !== "Deployed") throw new Error("base should deploy")
    const expected = structuredClone(original) as { networks: Record<string, Record<string, unknown>> }
    expected.networks["base"]!["contracts"] = { swapdeskRouter: base.address }
    expect(await readFile(path, "utf8")).toBe(JSON.stringify(expected, null, "\t") + "\n")
  })

  it("runs as the real command: one line per network, the address written, exit 0", async () => {
    const path = await writeLiveFile(liveFile({ ethereum: nodes.ethereum.network }))
    const before = await nonceOf(nodes.ethereum)
    const run = await runCommand(baseEnv(path))
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const address = /^ethereum: deployed SwapdeskRouter at (0x[0-9a-fA-F]{40}) \(transaction 0x[0-9a-f]{64}\)$/m
      .exec(run.stdout)?.[1]
    expect(address).toBeDefined()
    expect(run.stdout).toContain(`deployed on 1 network, written to ${path}`)
    const file = JSON.parse(await readFile(path, "utf8")) as { networks: { ethereum: { contracts: unknown } } }
    expect(file.networks.ethereum.contracts).toEqual({ swapdeskRouter: address })
    expect(await nonceOf(nodes.ethereum)).toBe(before + 1)
    expect(await read(nodes.ethereum, address as Address, "executor")).toBe(
      privateKeyToAccount(executorKeys.ethereum).address
    )
  })

  it("stops before any network when DEPLOYER_KEY or an executor variable is missing, naming it, printing no key", async () => {
    const original = liveFile({ ethereum: nodes.ethereum.network, base: nodes.base.network })
    const path = await writeLiveFile(original)
    const text = await readFile(path, "utf8")
    const nonces = await Promise.all([nonceOf(nodes.ethereum), nonceOf(nodes.base)])

    const { DEPLOYER_KEY: _, ...withoutDeployer } = baseEnv(path)
    const noDeployer = await runCommand(withoutDeployer)
    expect(noDeployer.code).toBe(1)
    expect(noDeployer.stderr).toContain("DEPLOYER_KEY is not set")
    expect(noDeployer.stdout).toBe("")

    const { SWAPDESK_EXECUTOR_KEY_BASE: __, ...withoutExecutor } = baseEnv(path)
    const noExecutor = await runCommand(withoutExecutor)
    expect(noExecutor.code).toBe(1)
    expect(noExecutor.stderr).toContain("SWAPDESK_EXECUTOR_KEY_BASE is not set")
    expect(noExecutor.stderr).not.toContain("SWAPDESK_EXECUTOR_KEY_ETHEREUM")

    const badExecutor = await runCommand({ ...baseEnv(path), SWAPDESK_EXECUTOR_KEY_ETHEREUM: "0x1234" })
    expect(badExecutor.code).toBe(1)
    expect(badExecutor.stderr).toContain("SWAPDESK_EXECUTOR_KEY_ETHEREUM is not a private key")

    for (const run of [noDeployer, noExecutor, badExecutor]) {
      const output = run.stdout + run.stderr
      for (const key of [deployerKey, executorKeys.ethereum, executorKeys.base, "0x1234"]) {
        expect(output).not.toContain(key.slice(2))
      }
    }
    expect(await Promise.all([nonceOf(nodes.ethereum), nonceOf(nodes.base)])).toEqual(nonces)
    expect(await readFile(path, "utf8")).toBe(text)
  })

  it("reports a network with another chain id, or no node, as down and deploys on the others", async () => {
    const original = liveFile({
      // The base node answers chain id 8453: a file saying 10 there must not deploy.
      ethereum: { ...nodes.base.network, chainId: 10, executorKeyEnv: "SWAPDESK_EXECUTOR_KEY_ETHEREUM" },
      base: nodes.base.network,
      arbitrum: {
        ...nodes.ethereum.network,
        rpcUrl: "http://127.0.0.1:9",
        executorKeyEnv: "SWAPDESK_EXECUTOR_KEY_BASE"
      }
    })
    const path = await writeLiveFile(original)
    const before = await nonceOf(nodes.base)

    const run = await runCommand(baseEnv(path))
    expect(run.code).toBe(1)
    const lines = run.stdout.trimEnd().split("\n")
    expect(lines[0]).toBe("ethereum: down, nothing deployed (the RPC answers chain id 8453, not 10)")
    expect(lines[1]).toMatch(/^base: deployed SwapdeskRouter at 0x[0-9a-fA-F]{40} /)
    expect(lines[2]).toMatch(/^arbitrum: down, nothing deployed \(/)
    expect(lines[3]).toBe(`deployed on 1 network, written to ${path}; 2 networks not done: run again`)
    // One transaction on the base node: base's deployment, none for the network that claimed chain 10.
    expect(await nonceOf(nodes.base)).toBe(before + 1)
    const file = JSON.parse(await readFile(path, "utf8")) as { networks: Record<string, Record<string, unknown>> }
    expect(file.networks["ethereum"]!["contracts"]).toBeUndefined()
    expect(file.networks["arbitrum"]!["contracts"]).toBeUndefined()
    expect(file.networks["base"]!["contracts"]).toBeDefined()
  })

  it("refuses a recorded address without code, sending nothing and leaving the file as it was", async () => {
    const nowhere = getAddress("0x00000000000000000000000000000000000c0de0")
    const path = await writeLiveFile(
      liveFile({ ethereum: { ...nodes.ethereum.network, contracts: { swapdeskRouter: nowhere } } })
    )
    const text = await readFile(path, "utf8")
    const before = await nonceOf(nodes.ethereum)
    const { SWAPDESK_EXECUTOR_KEY_ETHEREUM: _, ...env } = baseEnv(path)
    const report = await deployed(env)
    expect(deploymentSucceeded(report)).toBe(false)
    expect(outcomeOf(report, "ethereum")).toMatchObject({ _tag: "Failed" })
    expect((outcomeOf(report, "ethereum") as { reason: string }).reason).toContain(`records ${nowhere}`)
    expect(await nonceOf(nodes.ethereum)).toBe(before)
    expect(await readFile(path, "utf8")).toBe(text)
  })

  it("refuses a bad file with one line per bad field and deploys nothing", async () => {
    const path = await writeLiveFile(
      liveFile({ ethereum: { ...nodes.ethereum.network, confirmations: 0, quoteToken: "DAI" } })
    )
    const before = await nonceOf(nodes.ethereum)
    const exit = await runInProcess(baseEnv(path))
    expect(Exit.isFailure(exit)).toBe(true)
    const message = Exit.isFailure(exit) ? String(exit.cause) : ""
    expect(message).toContain("networks.ethereum.confirmations: must be at least 1 (found 0)")
    expect(message).toContain(`networks.ethereum.quoteToken: must be one of the network's tokens (found "DAI")`)
    expect(await nonceOf(nodes.ethereum)).toBe(before)

    const missing = await runCommand({ DEPLOYER_KEY: deployerKey })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("LIVE_CONFIG is not set")
  })
})
