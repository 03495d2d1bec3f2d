/**
 * The part of autocannon 8 the benchmarks use (the package ships no types). Field meanings are
 * from its README: `requests.average` is the mean of per-second samples, latencies are in ms.
 */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      readonly url: string
      readonly connections?: number
      readonly pipelining?: number
      /** Seconds. */
      readonly duration?: number
      readonly method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
      readonly headers?: Readonly<Record<string, string>>
      readonly body?: string
      /** Seconds to wait for a response. */
      readonly timeout?: number
    }

    interface Histogram {
      readonly average: number
      readonly mean: number
      readonly stddev: number
      readonly min: number
      readonly max: number
      readonly p50: number
      readonly p90: number
      readonly p99: number
    }

    interface Result {
      readonly requests: Histogram & { readonly total: number; readonly sent: number }
      /** Milliseconds. */
      readonly latency: Histogram
      readonly throughput: Histogram
      readonly errors: number
      readonly timeouts: number
      readonly mismatches: number
      readonly non2xx: number
      readonly "2xx": number
      /** Seconds. */
      readonly duration: number
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>

  export = autocannon
}
