/**
 * `@hermes/platform-email`: the email platform — IMAP (imapflow, IDLE with polling fallback) in,
 * SMTP (nodemailer) out, one session per mail thread. Its main export is the definition
 * `platform`; the settings are documented in settings.ts and docs/platforms.md.
 *
 * The adapter keeps its mailbox position and thread facts in `<home>/platforms/email/state.json`.
 */
import { join } from 'node:path';
import { definePlatform } from '@hermes/core';
import { EmailAdapter } from './adapter.js';
import { adapterSettings, EmailSecretsSchema, EmailSettingsSchema } from './settings.js';
import { SmtpSender } from './smtp.js';
import { outgoingMessageId } from './thread.js';

export { EmailAdapter } from './adapter.js';
export { automatedReason, headerView, AUTO_SUBMITTED_HEADER, type HeaderView } from './loop-guard.js';
export { markdownToHtml, escapeHtml } from './html.js';
export { stripQuotedText } from './strip.js';
export * from './settings.js';

/** The email platform: settings, passwords and adapter. */
export const platform = definePlatform({
  name: 'email',
  label: 'Email',
  settings: EmailSettingsSchema,
  secrets: EmailSecretsSchema,
  createAdapter: ({ settings, secrets, ctx }) =>
    new EmailAdapter(
      adapterSettings(settings, secrets, join(ctx.home.dir, 'platforms', 'email', 'state.json')),
      {
        log: ctx.log,
      },
    ),
  allowedUsersEnv: 'EMAIL_ALLOWED_USERS',
  piiSafe: false,
  maxMessageLength: 0,
  cronDeliverEnvVar: 'EMAIL_HOME_ADDRESS',
  platformHint:
    'You are answering email: each reply is sent as one complete mail (Markdown is rendered as simple HTML); ' +
    'write it whole, with no greeting boilerplate needed, and do not quote the earlier mails.',
  standaloneSender: async ({ settings, secrets }, chatId, text) => {
    const s = adapterSettings(settings, secrets);
    const smtp = new SmtpSender(s.smtp, { address: s.address, name: s.name });
    try {
      return await smtp.send({
        to: chatId,
        subject: s.subject,
        text,
        messageId: outgoingMessageId(s.address.split('@')[1] ?? 'localhost'),
      });
    } finally {
      smtp.close();
    }
  },
});
