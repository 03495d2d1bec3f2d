/** Starts the interface: the session from this tab's storage, the server's capabilities, the shell. */
import { render } from "preact"
import { App } from "./App.tsx"
import { discover, restoreSession } from "./Session.ts"
import "./styles.css"

restoreSession()
render(<App />, document.getElementById("app")!)
void discover()
