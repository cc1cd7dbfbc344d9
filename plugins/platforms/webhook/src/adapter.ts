/**
 * The generic webhook adapter (issue 6): inbound `POST <path>` with a JSON body, signed with the
 * shared secret (signature.ts), answered `202 Accepted` at once; replies go out as signed
 * `POST <outbound_url>` requests.
 *
 * Inbound body: `{"text": "…", "conversation": "<id>", "user": "<id>", "user_name": "…"}` —
 * `conversation` names the chat (one session each; default: `user`, else `default`).
 * Outbound body: `{"conversation": "<id>", "text": "…", "kind": "reply" | "notice"}`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChatInfo, listenOn, PlatformAdapter, type SendOptions, type SendResult } from '@hermes/core';
import { SIGNATURE_HEADER, SignatureVerifier, signedHeaders, TIMESTAMP_HEADER } from './signature.js';

/** Largest inbound body, bytes. */
export const MAX_WEBHOOK_BODY = 1024 * 1024;

/** Settings of the adapter. */
export interface WebhookSettings {
  host: string;
  /** 0: any free port. */
  port: number;
  path: string;
  secret: string;
  /** Where replies are POSTed; undefined: replies are dropped (logged). */
  outboundUrl?: string;
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** POSTs a signed JSON body. */
export async function postSigned(
  url: string,
  secret: string,
  payload: object,
  timeoutMs = 15_000,
): Promise<SendResult> {
  const body = JSON.stringify(payload);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(secret, body) },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? { ok: true } : { ok: false, error: `outbound POST answered ${res.status}` };
  } catch (err) {
    return { ok: false, error: `outbound POST failed: ${(err as Error).message}` };
  }
}

/** Webhook adapter. */
export class WebhookAdapter extends PlatformAdapter {
  private server: Server | undefined;
  private readonly verifier: SignatureVerifier;
  /** The port listened on (after connect). */
  port = 0;

  constructor(
    private readonly settings: WebhookSettings,
    opts: { log?: (line: string) => void; now?: () => number } = {},
  ) {
    super('webhook', { maxMessageLength: 0, ...(opts.log ? { log: opts.log } : {}) });
    this.verifier = new SignatureVerifier(settings.secret, opts.now);
  }

  async connect(): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) => {
        this.log(`inbound request failed: ${err.message}`);
        if (!res.headersSent) reply(res, 500, { ok: false, error: 'internal error' });
      });
    });
    this.server = server;
    await listenOn(server, this.settings.port, this.settings.host);
    this.port = (server.address() as AddressInfo).port;
    this.log(`listening on http://${this.settings.host}:${this.port}${this.settings.path}`);
  }

  async disconnect(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    await new Promise<void>((r) => {
      s.close(() => r());
      s.closeAllConnections?.();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== this.settings.path) return reply(res, 404, { ok: false, error: 'not found' });
    if (req.method !== 'POST') return reply(res, 405, { ok: false, error: 'POST only' });
    const parts: Buffer[] = [];
    let size = 0;
    for await (const p of req) {
      size += (p as Buffer).length;
      if (size > MAX_WEBHOOK_BODY) return reply(res, 413, { ok: false, error: 'body too large' });
      parts.push(p as Buffer);
    }
    const raw = Buffer.concat(parts);
    const h = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const verdict = this.verifier.verify(h(TIMESTAMP_HEADER), h(SIGNATURE_HEADER), raw);
    if (verdict !== true) {
      this.log(`refused an inbound request: ${verdict}`);
      return reply(res, 401, { ok: false, error: `signature ${verdict.replace('_', ' ')}` });
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return reply(res, 400, { ok: false, error: 'the body must be a JSON object' });
    }
    const text = typeof body.text === 'string' ? body.text.trim() : '';
    if (!text) return reply(res, 400, { ok: false, error: '"text" is required' });
    const str = (v: unknown): string | undefined =>
      typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : undefined;
    const user = str(body.user);
    const conversation = str(body.conversation) ?? user ?? 'default';
    const userName = str(body.user_name);
    const id = randomUUID();
    reply(res, 202, { ok: true, id, conversation });
    void this.emitMessage({
      source: {
        platform: 'webhook',
        chatType: 'dm',
        chatId: conversation,
        userId: user ?? conversation,
        ...(userName ? { userName } : {}),
        messageId: id,
      },
      text,
    });
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!this.settings.outboundUrl) {
      this.log(`no outbound_url: a reply to ${chatId} was dropped`);
      return { ok: false, error: 'platforms.webhook.outbound_url is not set' };
    }
    return postSigned(this.settings.outboundUrl, this.settings.secret, {
      conversation: chatId,
      text,
      kind: opts?.kind ?? 'notice',
      ...(opts?.replyTo ? { in_reply_to: opts.replyTo } : {}),
    });
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    return { name: chatId, type: 'dm' };
  }
}
