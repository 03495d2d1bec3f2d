/**
 * Notification settings (`GET`/`PUT /v1/account/notifications`, scope `account`): the email
 * address, Telegram chat and push device the alerts go to. A field left empty removes that
 * channel (`null`); the server refuses to remove one that active alerts use (`CHANNEL_IN_USE`).
 */
import { useSignal } from "@preact/signals"
import { call, get } from "../api/Api.ts"
import type { NotificationSettings as Settings } from "../api/Types.ts"
import { Section, TextField } from "../ui/Fields.tsx"
import { Form } from "../ui/Form.tsx"
import { useResource } from "../ui/Resource.ts"
import { ErrorBox, Loading, Notice } from "../ui/States.tsx"
import { useEffect } from "preact/hooks"

export const NotificationSettings = () => {
  const settings = useResource<Settings>()
  const email = useSignal("")
  const chatId = useSignal("")
  const deviceToken = useSignal("")
  const saved = useSignal(false)
  const error = useSignal<unknown>(null)

  const show = (value: Settings) => {
    email.value = value.email ?? ""
    chatId.value = value.telegram?.chatId ?? ""
    deviceToken.value = value.push?.deviceToken ?? ""
  }
  useEffect(() => {
    void settings.load(() => get<Settings>("/account/notifications")).then(() => {
      if (settings.data !== undefined) show(settings.data)
    })
  }, [])

  return (
    <Section title="Notification settings">
      <ErrorBox error={settings.error} />
      {settings.data === undefined && settings.error === null ? <Loading what="notification settings" /> : (
        <Form
          label="Notification settings"
          onSubmit={async () => {
            saved.value = false
            error.value = null
            try {
              const answer = await call<Settings>("PUT", "/account/notifications", {
                body: {
                  email: email.value.trim() === "" ? null : email.value.trim(),
                  telegram: chatId.value.trim() === "" ? null : { chatId: chatId.value.trim() },
                  push: deviceToken.value.trim() === "" ? null : { deviceToken: deviceToken.value.trim() }
                }
              })
              show(answer.data)
              saved.value = true
            } catch (failure) {
              error.value = failure
            }
          }}
        >
          <TextField label="Email address" type="email" value={email.value} onInput={(value) => (email.value = value)} hint="Empty: no email alerts" />
          <TextField label="Telegram chat id" value={chatId.value} onInput={(value) => (chatId.value = value)} hint="Empty: no Telegram alerts" />
          <TextField label="Push device token" value={deviceToken.value} onInput={(value) => (deviceToken.value = value)} hint="Empty: no push alerts" />
          <button type="submit">Save notification settings</button>
          <ErrorBox error={error.value} title="Not saved" />
          {saved.value ? <Notice>Notification settings saved.</Notice> : null}
        </Form>
      )}
    </Section>
  )
}
