/**
 * The simulator's only source of randomness: a seeded sfc32 generator (fast, 128-bit state, passes
 * PractRand), split into independent streams by name so that adding draws in one model never shifts
 * the numbers another model sees. The same seed gives the same numbers on every machine.
 */

/** Hashes a string to four 32-bit words (cyrb128), used to seed a stream. */
const cyrb128 = (text: string): [number, number, number, number] => {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0]
}

/** A stream's whole state, as plain numbers: `Prng.restore` continues it exactly (snapshots). */
export type PrngState = readonly [a: number, b: number, c: number, d: number, spareNormal: number]

export class Prng {
  private a: number
  private b: number
  private c: number
  private d: number
  /** A second normal from the last Box-Muller pair, or NaN. */
  private spareNormal = Number.NaN

  constructor(seed: string | PrngState) {
    if (typeof seed !== "string") {
      ;[this.a, this.b, this.c, this.d, this.spareNormal] = seed
      return
    }
    ;[this.a, this.b, this.c, this.d] = cyrb128(seed)
    // Discard the first outputs: they still carry structure from the seed hash.
    for (let i = 0; i < 15; i++) this.nextUint32()
  }

  /** An independent stream for one purpose, e.g. `prng.fork("price:SOL")`. */
  static stream(seed: string | number, purpose: string): Prng {
    return new Prng(`${seed}/${purpose}`)
  }

  /** The stream's state now, for a snapshot. */
  state(): PrngState {
    return [this.a, this.b, this.c, this.d, this.spareNormal]
  }

  /** A stream that continues from `state` exactly as the one it was taken from would have. */
  static restore(state: PrngState): Prng {
    return new Prng(state)
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** Standard normal (Box-Muller, both values used). */
  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const spare = this.spareNormal
      this.spareNormal = Number.NaN
      return spare
    }
    let u = this.next()
    while (u === 0) u = this.next()
    const v = this.next()
    const r = Math.sqrt(-2 * Math.log(u))
    this.spareNormal = r * Math.sin(2 * Math.PI * v)
    return r * Math.cos(2 * Math.PI * v)
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next())
  }

  /** `length` characters drawn from `alphabet`. */
  string(length: number, alphabet: string): string {
    // Joined once rather than appended: a string built by `+=` is a chain of one node per character,
    // and ids drawn here are kept with their trades for good (docs/performance.md#memory).
    const chars: Array<string> = []
    for (let i = 0; i < length; i++) chars.push(alphabet[this.nextUint32() % alphabet.length]!)
    return chars.join("")
  }
}
