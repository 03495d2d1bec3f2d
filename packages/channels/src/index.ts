/**
 * @swapdesk/channels: the adapters that reach outside the process. Email over SMTP, Telegram's
 * Bot API and FCM HTTP v1 behind the core's `ChannelTransport`, and the Standard Webhooks sender
 * behind its `WebhookTransport`, with the address rule for webhook URLs.
 */
export * from "./Channels.ts"
export { makeEmailChannel } from "./EmailChannel.ts"
export { makeFcmChannel, parseServiceAccount, type ServiceAccount, serviceAccountAssertion } from "./FcmChannel.ts"
export { isPublicAddress } from "./PublicAddress.ts"
export { makeTelegramChannel } from "./TelegramChannel.ts"
export {
  AddressRefused,
  publicAddressesOf,
  publicLookup,
  type ResolveAll,
  type ResolvedAddress,
  systemResolveAll,
  type WebhookAddressRule
} from "./WebhookAddressRule.ts"
export { layerWebhookSender } from "./WebhookSender.ts"
