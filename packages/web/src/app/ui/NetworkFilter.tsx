/**
 * The network filter of a list or a lookup: one network, or any (`""`, which sends no `network`
 * parameter), in the order the API lists them.
 */
import { type Network, networks } from "../api/Types.ts"
import { SelectField } from "./Fields.tsx"

/** A "Network" select whose first option, "Any network", stands for no filter. */
export const NetworkFilter = (
  props: { readonly value: Network | ""; readonly onChange: (value: Network | "") => void }
) => (
  <SelectField<Network | "">
    label="Network"
    value={props.value}
    options={[["", "Any network"], ...networks]}
    onChange={props.onChange}
  />
)
