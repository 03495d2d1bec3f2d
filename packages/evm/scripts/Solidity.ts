/**
 * The one way this package compiles its Solidity: solc from npm (the version the manifest pins),
 * OpenZeppelin's contracts from node_modules, and fixed settings, so that the committed artifacts
 * can be rebuilt byte for byte (docs/decisions.md, "The contract's artifacts are committed").
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import solc from "solc"
import type { Abi, Hex } from "viem"

const packageRoot = join(import.meta.dirname, "..")
const require = createRequire(join(packageRoot, "package.json"))

/** The settings every artifact is built with: Cancun is the newest fork all three networks run. */
export const compilerSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } }
} as const

/** A compiled contract: what deploying and calling it takes. */
export interface CompiledContract {
  readonly abi: Abi
  readonly bytecode: Hex
}

interface SolcOutput {
  readonly errors?: ReadonlyArray<{ readonly severity: string; readonly formattedMessage: string }>
  readonly contracts: Record<
    string,
    Record<string, { readonly abi: Abi; readonly evm: { readonly bytecode: { readonly object: string } } }>
  >
}

/** Reads an import (only OpenZeppelin's, from node_modules) for the compiler. */
const findImport = (path: string): { readonly contents: string } | { readonly error: string } => {
  if (!path.startsWith("@openzeppelin/contracts/")) return { error: `unknown import ${path}` }
  return { contents: readFileSync(require.resolve(path), "utf8") }
}

/**
 * Compiles the given sources (paths relative to the package, e.g. `contracts/DemoToken.sol`) and
 * answers each contract they define by name. Any compiler error (not warning) throws.
 */
export const compileSolidity = (sources: ReadonlyArray<string>): Record<string, CompiledContract> => {
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(
      sources.map((source) => [source, { content: readFileSync(join(packageRoot, source), "utf8") }])
    ),
    settings: compilerSettings
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput
  const errors = (output.errors ?? []).filter((error) => error.severity === "error")
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join("\n"))
  const compiled: Record<string, CompiledContract> = {}
  for (const source of sources) {
    for (const [name, contract] of Object.entries(output.contracts[source] ?? {})) {
      compiled[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
    }
  }
  return compiled
}

/** The compiler's version, as recorded in each artifact's header. */
export const compilerVersion = (): string => solc.version() as string
