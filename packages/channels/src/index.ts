/**
 * @swapdesk/channels: the adapters that reach outside the process. Email over SMTP, Telegram's
 * Bot API and FCM HTTP v1 behind the core's `ChannelTransport`, and the Standard Webhooks sender
 * behind its `WebhookTransport`.
 */
export * from "./Channels.ts"
export { makeEmailChannel } from "./EmailChannel.ts"
export { makeFcmChannel, parseServiceAccount, type ServiceAccount, serviceAccountAssertion } from "./FcmChannel.ts"
export { makeTelegramChannel } from "./TelegramChannel.ts"
export { WebhookSenderLive } from "./WebhookSender.ts"
