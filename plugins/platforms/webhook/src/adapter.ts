/**
 * The generic webhook adapter: inbound `POST <path>` with a JSON body, signed with the
 * shared secret (signature.ts), answered `202 Accepted` once the message is recorded in the
 * delivery ledger (it then gets an outcome even across a crash), `403` when refused (access
 * denied), `503` with `Retry-After` when it could not be taken (shutting down, state.db failing);
 * replies go out as signed `POST <outbound_url>` requests.
 *
 * Inbound body: `{"text": "…", "conversation": "<id>", "user": "<id>", "user_name": "…",
 * "id": "<sender's message id>"}` — `conversation` names the chat (one session each; default:
 * `user`, else `default`); `id` (optional) makes a re-sent message a duplicate that is dropped.
 * The 202 answer carries the message's `id` (the sender's, else a new one); a duplicate is
 * answered 202 with `"duplicate": true`.
 * Outbound body: `{"conversation", "text", "kind": "reply" | "notice", "in_reply_to"?, "id"?}`;
 * a reply's `id` (also the `X-Hermes-Delivery` header) is the same on every retry and after a
 * restart, so the receiver can drop a repeat. Replies follow the autonomous silence rule: a
 * silence marker alone or on the first or last line (`[SILENT]\n\nNothing new.`) sends nothing. A 2xx answer confirms; 408, 425, 429 and 5xx are
 * retried, other answers are final.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ChatInfo,
  listenOn,
  PlatformAdapter,
  type ReplayGuard,
  type SendOptions,
  type SendResult,
} from '@hermes/core';
import { SIGNATURE_HEADER, SignatureVerifier, signedHeaders, TIMESTAMP_HEADER } from './signature.js';

/** Header of an outbound reply's idempotency key. */
export const DELIVERY_HEADER = 'x-hermes-delivery';
/** Statuses of the receiver worth another try (the rest of 4xx is final). */
const RETRYABLE_STATUS = new Set([408, 425, 429]);

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

/**
 * POSTs a signed JSON body.
 * @param deliveryId sent as `X-Hermes-Delivery` (the receiver's idempotency key).
 */
export async function postSigned(
  url: string,
  secret: string,
  payload: object,
  timeoutMs = 15_000,
  deliveryId?: string,
): Promise<SendResult> {
  const body = JSON.stringify(payload);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(secret, body),
        ...(deliveryId ? { [DELIVERY_HEADER]: deliveryId } : {}),
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return { ok: true };
    const retryable = res.status >= 500 || RETRYABLE_STATUS.has(res.status);
    return { ok: false, error: `outbound POST answered ${res.status}`, retryable };
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
  /** How long an inbound request waits for the pipeline's decision before answering 503, ms. */
  private readonly receiptTimeoutMs: number;

  constructor(
    private readonly settings: WebhookSettings,
    opts: {
      log?: (line: string) => void;
      now?: () => number;
      replayGuard?: ReplayGuard;
      /** Wait for the pipeline's decision, ms (default 10,000). */
      receiptTimeoutMs?: number;
    } = {},
  ) {
    super('webhook', { maxMessageLength: 0, ...(opts.log ? { log: opts.log } : {}) });
    this.receiptTimeoutMs = opts.receiptTimeoutMs ?? 10_000;
    this.verifier = new SignatureVerifier(settings.secret, opts.now, opts.replayGuard);
  }

  /** A webhook is a machine-to-machine lane: replies follow the autonomous silence rule. */
  override get autonomous(): boolean {
    return true;
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
    const senderId = str(body.id);
    const id = senderId ?? randomUUID();
    // answered once the pipeline decided: 202 means the message is recorded and will be answered
    // even if the daemon dies right after; 503 asks the sender to send it again later
    const receipt = await this.emitMessageWithReceipt(
      {
        source: {
          platform: 'webhook',
          chatType: 'dm',
          chatId: conversation,
          userId: user ?? conversation,
          ...(userName ? { userName } : {}),
          messageId: id,
        },
        text,
        ...(senderId ? { dedupeKey: senderId } : {}),
      },
      id,
      this.receiptTimeoutMs,
    );
    switch (receipt.kind) {
      case 'accepted':
        return reply(res, 202, { ok: true, id, conversation });
      case 'duplicate':
        return reply(res, 202, { ok: true, id, conversation, duplicate: true });
      case 'refused':
        return reply(res, 403, { ok: false, id, error: `refused: ${receipt.reason}` });
      case 'unavailable':
        this.log(`an inbound message was not taken: ${receipt.reason}`);
        res.setHeader('retry-after', '5');
        return reply(res, 503, { ok: false, id, error: `not taken, send it again later: ${receipt.reason}` });
    }
  }

  async send(chatId: string, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!this.settings.outboundUrl) {
      this.log(`no outbound_url: a reply to ${chatId} was dropped`);
      return { ok: false, error: 'platforms.webhook.outbound_url is not set' };
    }
    return postSigned(
      this.settings.outboundUrl,
      this.settings.secret,
      {
        conversation: chatId,
        text,
        kind: opts?.kind ?? 'notice',
        ...(opts?.replyTo ? { in_reply_to: opts.replyTo } : {}),
        ...(opts?.deliveryId ? { id: opts.deliveryId } : {}),
        // a fresh value per attempt: a retry in the same second as an earlier attempt of the same
        // reply would otherwise carry the same signature and be refused as a replay
        nonce: randomUUID(),
      },
      15_000,
      opts?.deliveryId,
    );
  }

  async getChatInfo(chatId: string): Promise<ChatInfo> {
    return { name: chatId, type: 'dm' };
  }
}
