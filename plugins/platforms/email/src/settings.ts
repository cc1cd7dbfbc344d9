/**
 * `platforms.email` settings and the `.env` secrets of the email platform, parsed with zod (errors
 * name the key, define-platform.ts), and their mapping to the adapter's settings.
 *
 * ```yaml
 * platforms:
 *   email:
 *     enabled: true
 *     address: hermes@example.com       # the bot's own address (From; mail from it is ignored)
 *     name: Hermes                      # display name in From
 *     imap: { host: imap.example.com, port: 993, tls: true, user: hermes@example.com }
 *     smtp: { host: smtp.example.com, port: 465, tls: true, user: hermes@example.com }
 *     mailbox: INBOX
 *     poll_interval: 60                 # seconds; new mail is also seen at once through IDLE
 *     allowed_senders: ["@example.com"] # mail from others is ignored without any answer
 * ```
 * Secrets (`.env`): `EMAIL_PASSWORD` (both servers), or `EMAIL_IMAP_PASSWORD` /
 * `EMAIL_SMTP_PASSWORD`; `EMAIL_ALLOWED_USERS` (addresses); `EMAIL_HOME_ADDRESS` (cron delivery).
 */
import { z } from 'zod';

/** A plain mail address (`user@domain`), compared in lower case. */
const ADDRESS_RE = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

const Address = z
  .string()
  .trim()
  .regex(ADDRESS_RE, { error: (iss) => `"${String(iss.input)}" is not a mail address` });

/** `user@domain` or `@domain` (every address of the domain). */
const SenderPattern = z
  .string()
  .trim()
  .refine((s) => ADDRESS_RE.test(s) || /^@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/.test(s), {
    error: 'expected an address (user@example.com) or a domain (@example.com)',
  });

const Host = z.string().trim().min(1, { error: 'is not set' });

/** One server: host, port (default by TLS), TLS from the first byte, login user. */
function server(defaults: { tlsPort: number; plainPort: number }) {
  return z
    .object({
      host: Host,
      /** Default: the TLS port with `tls`, else the plain one. */
      port: z.number().int().min(1).max(65535).optional(),
      /** TLS from the first byte (IMAPS 993, SMTPS 465); false: STARTTLS when offered. */
      tls: z.boolean().default(true),
      /** Verify the server certificate. */
      tls_verify: z.boolean().default(true),
      /** Login name (default: `address`). */
      user: z.string().trim().min(1).optional(),
    })
    .transform((s) => ({ ...s, port: s.port ?? (s.tls ? defaults.tlsPort : defaults.plainPort) }));
}

/** `platforms.email` (the keys every platform shares are in platform-config.ts). */
export const EmailSettingsSchema = z.object({
  /** The bot's own address: the From of its mail; mail from it is never answered. */
  address: Address,
  /** Display name in From. */
  name: z.string().trim().max(100).default('Hermes'),
  imap: server({ tlsPort: 993, plainPort: 143 }),
  smtp: server({ tlsPort: 465, plainPort: 587 }),
  /** The mailbox watched for new mail. */
  mailbox: z.string().trim().min(1).default('INBOX'),
  /** Seconds between checks for new mail (IDLE reports new mail at once where the server has it). */
  poll_interval: z.number().int().min(5).max(3600).default(60),
  /** When set, mail from any other sender is ignored without an answer (no pairing offer). */
  allowed_senders: z.array(SenderPattern).default([]),
  /** Largest attachment taken, bytes (larger ones are named in the text, not kept). */
  max_attachment_bytes: z
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  /** Subject of mail the bot starts itself (cron delivery, a new conversation). */
  subject: z.string().trim().min(1).max(200).default('Message from Hermes'),
});

/** Parsed `platforms.email`. */
export type EmailSettingsInput = z.output<typeof EmailSettingsSchema>;

/** The email platform's `.env` variables. */
export const EmailSecretsSchema = z
  .object({
    /** Password of both servers (an app password for Gmail). */
    EMAIL_PASSWORD: z.string().min(1).optional(),
    /** IMAP password when it differs from `EMAIL_PASSWORD`. */
    EMAIL_IMAP_PASSWORD: z.string().min(1).optional(),
    /** SMTP password when it differs from `EMAIL_PASSWORD`. */
    EMAIL_SMTP_PASSWORD: z.string().min(1).optional(),
  })
  .refine((s) => !!(s.EMAIL_PASSWORD || (s.EMAIL_IMAP_PASSWORD && s.EMAIL_SMTP_PASSWORD)), {
    path: ['EMAIL_PASSWORD'],
    error: 'not set in the profile .env (or set both EMAIL_IMAP_PASSWORD and EMAIL_SMTP_PASSWORD)',
  });

/** Parsed secrets. */
export type EmailSecrets = z.output<typeof EmailSecretsSchema>;

/** One server as the adapter uses it. */
export interface ServerSettings {
  host: string;
  port: number;
  tls: boolean;
  tlsVerify: boolean;
  user: string;
  password: string;
}

/** Settings of the adapter. */
export interface EmailSettings {
  /** The bot's address, lower case. */
  address: string;
  name: string;
  imap: ServerSettings;
  smtp: ServerSettings;
  mailbox: string;
  /** Between checks for new mail, ms. */
  pollIntervalMs: number;
  /** Lower-case addresses and `@domain`s; empty: everyone reaches the pipeline. */
  allowedSenders: string[];
  /** Largest attachment kept, bytes. */
  maxAttachmentBytes: number;
  /** Largest mail fetched whole, bytes (a larger one is cut there and its attachments dropped). */
  maxMailBytes: number;
  /** Subject of mail that starts a conversation. */
  subject: string;
  /** Where the adapter keeps its IMAP position and thread facts (a JSON file, 0600). */
  stateFile?: string;
}

/** The adapter's settings from the parsed section and secrets. */
export function adapterSettings(c: EmailSettingsInput, s: EmailSecrets, stateFile?: string): EmailSettings {
  const address = c.address.toLowerCase();
  const srv = (x: EmailSettingsInput['imap'], password: string): ServerSettings => ({
    host: x.host,
    port: x.port,
    tls: x.tls,
    tlsVerify: x.tls_verify,
    user: x.user ?? address,
    password,
  });
  return {
    address,
    name: c.name,
    imap: srv(c.imap, s.EMAIL_IMAP_PASSWORD ?? s.EMAIL_PASSWORD ?? ''),
    smtp: srv(c.smtp, s.EMAIL_SMTP_PASSWORD ?? s.EMAIL_PASSWORD ?? ''),
    mailbox: c.mailbox,
    pollIntervalMs: c.poll_interval * 1000,
    allowedSenders: c.allowed_senders.map((a) => a.toLowerCase()),
    maxAttachmentBytes: c.max_attachment_bytes,
    maxMailBytes: mailCap(c.max_attachment_bytes),
    subject: c.subject,
    ...(stateFile ? { stateFile } : {}),
  };
}

/** Largest mail fetched whole: room for three attachments of the cap, base64-encoded, bytes. */
export function mailCap(maxAttachmentBytes: number): number {
  return Math.ceil(maxAttachmentBytes * 3 * (4 / 3)) + 1024 * 1024;
}

/** True when `address` (lower case) matches one of the patterns (`user@domain` or `@domain`). */
export function senderAllowed(address: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const a = address.toLowerCase();
  return patterns.some((p) => (p.startsWith('@') ? a.endsWith(p) : a === p));
}
