import { createTrade, startServers } from "./bench/http.ts"
const s = await startServers()
const id = await createTrade(s.apiUrl)
const r = await fetch(`${s.apiUrl}/v1/market-data?token=SOL`)
console.log(r.status, [...r.headers], await r.text())
const counts = new Map()
for (let i = 0; i < 200; i++) {
  const x = await fetch(`${s.apiUrl}/v1/trades/${id}`, {
    headers: { authorization: "Bearer sd_test_" + "DemoProAllScopes".padEnd(40, "0") }
  })
  const t = await x.text()
  counts.set(x.status, (counts.get(x.status) ?? 0) + 1)
  if (i === 199 || x.status !== 200 && counts.get(x.status) === 1) console.log(x.status, [...x.headers], t)
}
console.log(counts)
const c2 = new Map()
for (let i = 0; i < 200; i++) {
  const x = await fetch(`${s.apiUrl}/v1/market-data?token=SOL`)
  await x.text()
  c2.set(x.status, (c2.get(x.status) ?? 0) + 1)
}
console.log(c2)
await s.stop()
