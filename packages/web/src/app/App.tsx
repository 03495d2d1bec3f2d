/**
 * The shell: sign-in until a key is given, then the navigation and the screen the address names
 * (`#/market`, `#/swap`, ...). Every screen of the contract is offered (any swapdesk server serves
 * all of its routes), and the simulator's panel only on the simulator.
 */
import { useSignal } from "@preact/signals"
import { useEffect } from "preact/hooks"
import { apiKey, rateLimit } from "./api/Api.ts"
import { wallNow } from "./Clock.ts"
import { keyLabel, keyShort } from "./KeyInUse.ts"
import { backendLabel, networkBadges } from "./Backend.ts"
import { heldBack, usePoll } from "./Live.ts"
import { AccountScreen } from "./screens/AccountScreen.tsx"
import { AlertsScreen } from "./screens/AlertsScreen.tsx"
import { HistoryScreen } from "./screens/HistoryScreen.tsx"
import { MarketScreen, TokenList } from "./screens/MarketScreen.tsx"
import { OrdersScreen } from "./screens/OrdersScreen.tsx"
import { PortfolioScreen } from "./screens/PortfolioScreen.tsx"
import { SignInScreen } from "./screens/SignInScreen.tsx"
import { SimulatorScreen } from "./screens/SimulatorScreen.tsx"
import { SwapScreen } from "./screens/SwapScreen.tsx"
import { discover, health, isSimulator, signOut } from "./Session.ts"
import { tokensLoaded } from "./Tokens.ts"

interface Screen {
  readonly path: string
  readonly title: string
  readonly view: () => preact.JSX.Element
  readonly offered: () => boolean
}

const always = () => true

export const screens: ReadonlyArray<Screen> = [
  { path: "market", title: "Market", view: MarketScreen, offered: always },
  { path: "swap", title: "Swap", view: SwapScreen, offered: always },
  { path: "orders", title: "Orders", view: OrdersScreen, offered: always },
  { path: "history", title: "History", view: HistoryScreen, offered: always },
  { path: "alerts", title: "Alerts", view: AlertsScreen, offered: always },
  { path: "portfolio", title: "Portfolio", view: PortfolioScreen, offered: always },
  { path: "account", title: "Account", view: AccountScreen, offered: always },
  { path: "simulator", title: "Simulator", view: SimulatorScreen, offered: isSimulator }
]

const currentPath = () => location.hash.replace(/^#\/?/, "").split("?")[0] || "market"

const RateLine = () => {
  const held = heldBack(wallNow.value)
  const budget = rateLimit.value
  return (
    <p class="rate" aria-live="polite">
      {held
        ?? (budget === null ? "Realtime" : `Realtime · ${budget.remaining} of ${budget.limit} requests left this minute`)}
    </p>
  )
}

/** How often live mode re-reads `GET /v1/health`, so a node going down or coming back shows. */
const HEALTH_POLL_MS = 15_000

/**
 * The backend (`simulator` or `live`) and, in live mode, each network's node, a down one or a
 * lagging index marked;
 * kept fresh by re-reading the public `GET /v1/health` while the server is live.
 */
const BackendBadge = () => {
  const live = health.value?.backend === "live"
  usePoll(() => live ? discover() : Promise.resolve(), HEALTH_POLL_MS, [live])
  const label = backendLabel(health.value)
  if (label === null) return null
  return (
    <p class="backend" aria-label="Server">
      <span class={`badge ${live ? "badge-live" : "badge-sim"}`} title={`Backend: ${health.value?.backend}`}>
        {label}
      </span>
      {networkBadges(health.value).map((badge) => (
        <span
          key={badge.network}
          class={`badge ${badge.up ? badge.status === null ? "net-up" : "net-lagging" : "net-down"}`}
          title={badge.title}
        >
          {badge.network}
          {badge.status === null ? null : ` · ${badge.status}`}
        </span>
      ))}
    </p>
  )
}

export const App = () => {
  const path = useSignal(currentPath())
  useEffect(() => {
    const onHash = () => {
      path.value = currentPath()
      document.getElementById("main")?.focus()
    }
    addEventListener("hashchange", onHash)
    return () => removeEventListener("hashchange", onHash)
  }, [])

  if (apiKey.value === null) return <SignInScreen />

  const offered = screens.filter((screen) => screen.offered())
  const screen = offered.find((candidate) => candidate.path === path.value) ?? offered[0]!
  document.title = `${screen.title} · swapdesk`
  const View = screen.view
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => {
        event.preventDefault()
        document.getElementById("main")?.focus()
      }}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">swapdesk</span>
        <nav aria-label="Screens">
          <ul>
            {offered.map((item) => (
              <li key={item.path}>
                <a href={`#/${item.path}`} aria-current={item === screen ? "page" : undefined}>
                  {item.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <BackendBadge />
          <RateLine />
          <span class="muted key" title={`The key this tab is signed in with: ${keyShort(apiKey.value)}`}>
            {keyLabel(apiKey.value)}
          </span>
          <button type="button" class="secondary" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <TokenList />
        {tokensLoaded.value ? <View key={screen.path} /> : <p class="muted" role="status">Loading tokens…</p>}
      </main>
    </>
  )
}
