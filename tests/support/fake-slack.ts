/**
 * A local Slack stand-in for tests: one `node:http` server on 127.0.0.1 serving the Web API
 * (`/api/<method>`, fake-slack-api.ts) and the Socket Mode WebSocket (`/link`) that
 * `apps.connections.open` hands out, so Bolt and `@slack/socket-mode` run unchanged against it.
 *
 * The socket speaks Socket Mode's envelope protocol: a `hello` on connect; `events_api`,
 * `slash_commands` and `interactive` envelopes, each with an `envelope_id` the client must send
 * back as its ack; an envelope not acked when its socket drops is delivered again on the next
 * connection with `retry_attempt` + 1 and `retry_reason: "timeout"`, as Slack does; `disconnect`
 * envelopes (`refresh_requested`, `warning`) ask the client to reconnect. A test plays users
 * (messages, mentions, files, the slash command, button presses) and waits for the bot's calls.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  handleSlackApi,
  type SlackApiState,
  type SlackBotMessage,
  type SlackCall,
  type SlackHostedFile,
  type SlackUpload,
} from './fake-slack-api.js';

export type { SlackBotMessage, SlackCall, SlackUpload } from './fake-slack-api.js';

/** One envelope the socket sent. */
export interface SlackEnvelope {
  envelope_id: string;
  type: 'events_api' | 'slash_commands' | 'interactive';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: any;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
}

/** Options of one delivery. */
export interface DeliverOptions {
  /** The client's ack of this envelope is "lost": it stays pending and is redelivered after a drop. */
  loseAck?: boolean;
}

/** A running stand-in. */
export interface FakeSlack {
  /** Web API base for `api_base`, e.g. `http://127.0.0.1:40001/api/`. */
  url: string;
  botToken: string;
  appToken: string;
  botUserId: string;
  teamId: string;
  /** Every Web API call, in order. */
  calls: SlackCall[];
  /** Messages the bot posted, by ts. */
  messages: Map<string, SlackBotMessage>;
  uploads: Map<string, SlackUpload>;
  /** Every envelope sent (redeliveries included), in order. */
  envelopes: SlackEnvelope[];
  /** Envelope ids the client acked. */
  acks: string[];
  /** Socket connections accepted so far. */
  connections(): number;
  /** True while a client socket is open. */
  connected(): boolean;
  /** apps.connections.open answers `{ok: false, error}` while set (undefined: normal). */
  setOpenError(error: string | undefined): void;
  /** Revokes (true) or restores the bot token: bot methods answer `token_revoked`. */
  revokeBotToken(revoked: boolean): void;
  /** Names a user for users.info. */
  addUser(id: string, name: string): void;
  /** Hosts a file users can share; returns the file object of a `files` array of a message event. */
  hostFile(name: string, mimetype: string, data: Buffer): Record<string, unknown>;
  /**
   * A user's message (a `message` event; in a channel, text mentioning the bot also yields an
   * `app_mention` event, as Slack sends both). @returns the message ts.
   */
  userMessage(m: {
    channel: string;
    user: string;
    text: string;
    thread_ts?: string;
    files?: Array<Record<string, unknown>>;
    /** Extra event fields (subtype, edited …). */
    extra?: Record<string, unknown>;
    deliver?: DeliverOptions;
  }): string;
  /** The `/hermes` slash command. @returns the envelope id. */
  slashCommand(m: { channel: string; user: string; text: string; command?: string }): string;
  /** Presses the button labelled `label` (its text starts with it) of a bot message. */
  pressButton(m: { ts: string; user: string; label: string }): string;
  /** Closes the client's socket abruptly (no close frame). */
  dropSocket(): void;
  /** Sends a `disconnect` envelope with `reason`. */
  sendDisconnect(reason: 'refresh_requested' | 'warning' | 'link_disabled'): void;
  /** Resolves with the first call (past or future) matching `pred`. */
  waitForCall(pred: (c: SlackCall) => boolean, what: string, timeoutMs?: number): Promise<SlackCall>;
  /** Resolves with the first truthy `probe()`, checked after every call and socket event. */
  waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** Starts the stand-in on a free loopback port. */
export async function startFakeSlack(): Promise<FakeSlack> {
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };
  let tsSeq = 0;
  const tsBase = Math.floor(Date.now() / 1000);
  const state: SlackApiState = {
    origin: '',
    botToken: 'xoxb-1111-2222-faketoken',
    appToken: 'xapp-1-A0TEST-3333-fakeapptoken',
    botUserId: 'UBOT',
    botId: 'BBOT',
    teamId: 'T0TEST',
    calls: [],
    messages: new Map(),
    uploads: new Map(),
    files: new Map<string, SlackHostedFile>(),
    users: new Map(),
    socketUrl: () => `${state.origin.replace(/^http/, 'ws')}/link?ticket=${randomUUID()}`,
    nextTs: () => `${tsBase}.${String(++tsSeq).padStart(6, '0')}`,
    wake,
  };
  const envelopes: SlackEnvelope[] = [];
  const acks: string[] = [];
  /** Envelopes sent and not acked, by id, with whether their ack is to be lost. */
  const pending = new Map<string, { env: SlackEnvelope; loseAck: boolean }>();
  let socket: WebSocket | undefined;
  let connections = 0;

  const server = createServer((req, res) => {
    handleSlackApi(state, req, res)
      .then((handled) => {
        if (!handled) res.writeHead(404).end();
      })
      .catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(err.message);
      });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, sock, head) => {
    if (!req.url?.startsWith('/link')) return sock.destroy();
    wss.handleUpgrade(req, sock, head, (ws) => onConnection(ws));
  });

  const send = (env: SlackEnvelope): void => {
    envelopes.push(env);
    socket?.send(JSON.stringify(env));
    wake();
  };

  function onConnection(ws: WebSocket): void {
    socket?.terminate();
    socket = ws;
    connections++;
    ws.on('message', (data) => {
      let msg: { envelope_id?: string };
      try {
        msg = JSON.parse(String(data)) as { envelope_id?: string };
      } catch {
        return;
      }
      const id = msg.envelope_id;
      if (!id) return;
      const p = pending.get(id);
      if (p?.loseAck) return; // the ack never reached "Slack"
      pending.delete(id);
      acks.push(id);
      wake();
    });
    ws.on('close', () => {
      if (socket === ws) socket = undefined;
      wake();
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0TEST' },
      }),
    );
    // what was never acked is delivered again, marked as a retry
    for (const p of pending.values()) {
      p.loseAck = false;
      p.env = {
        ...p.env,
        retry_attempt: (p.env.retry_attempt ?? 0) + 1,
        retry_reason: 'timeout',
      };
      send(p.env);
    }
    wake();
  }

  const deliver = (
    type: SlackEnvelope['type'],
    payload: unknown,
    opts: DeliverOptions = {},
    acceptsResponse = false,
  ): string => {
    const env: SlackEnvelope = {
      envelope_id: randomUUID(),
      type,
      payload,
      accepts_response_payload: acceptsResponse,
      ...(type === 'events_api' ? { retry_attempt: 0, retry_reason: '' } : {}),
    };
    pending.set(env.envelope_id, { env, loseAck: opts.loseAck ?? false });
    send(env);
    return env.envelope_id;
  };

  const eventEnvelope = (event: Record<string, unknown>): Record<string, unknown> => ({
    token: 'legacy-verification-token',
    team_id: state.teamId,
    api_app_id: 'A0TEST',
    event,
    type: 'event_callback',
    event_id: `Ev${randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: state.teamId,
        user_id: state.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  });

  const channelType = (id: string): string =>
    id.startsWith('D') ? 'im' : id.startsWith('G') ? 'group' : 'channel';

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;

  const waitFor = async <T>(
    probe: () => T | undefined | false,
    what: string,
    timeoutMs = 20_000,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v) return v;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; calls: ${state.calls.map((c) => c.method).join(', ')}`,
        );
      await new Promise<void>((r) => {
        const t = setTimeout(done, 200);
        function done(): void {
          clearTimeout(t);
          waiters.delete(done);
          r();
        }
        waiters.add(done);
      });
    }
  };

  return {
    url: `${state.origin}/api/`,
    botToken: state.botToken,
    appToken: state.appToken,
    botUserId: state.botUserId,
    teamId: state.teamId,
    calls: state.calls,
    messages: state.messages,
    uploads: state.uploads,
    envelopes,
    acks,
    connections: () => connections,
    connected: () => socket !== undefined,
    setOpenError: (e) => {
      state.openError = e;
    },
    revokeBotToken: (revoked) => {
      state.botRevoked = revoked;
    },
    addUser: (id, name) => void state.users.set(id, name),
    hostFile: (name, mimetype, data) => {
      const id = `F${randomUUID().replaceAll('-', '').slice(0, 9).toUpperCase()}`;
      state.files.set(id, { id, name, mimetype, data });
      const url = `${state.origin}/files-pri/${state.teamId}-${id}/${encodeURIComponent(name)}`;
      return {
        id,
        name,
        title: name,
        mimetype,
        filetype: name.split('.').pop() ?? 'bin',
        size: data.length,
        url_private: url,
        url_private_download: `${url}?download=1`,
      };
    },
    userMessage: ({ channel, user, text, thread_ts, files, extra, deliver: opts }) => {
      const ts = state.nextTs();
      const base = {
        user,
        text,
        ts,
        channel,
        event_ts: ts,
        team: state.teamId,
        ...(thread_ts ? { thread_ts } : {}),
      };
      deliver(
        'events_api',
        eventEnvelope({
          type: 'message',
          ...base,
          channel_type: channelType(channel),
          ...(files ? { subtype: 'file_share', files, upload: false } : {}),
          ...extra,
        }),
        opts,
      );
      if (!channel.startsWith('D') && text.includes(`<@${state.botUserId}>`))
        deliver(
          'events_api',
          eventEnvelope({ type: 'app_mention', ...base, ...(files ? { files } : {}) }),
          opts,
        );
      return ts;
    },
    slashCommand: ({ channel, user, text, command = '/hermes' }) =>
      deliver(
        'slash_commands',
        {
          token: 'legacy-verification-token',
          team_id: state.teamId,
          team_domain: 'hermes-test',
          channel_id: channel,
          channel_name: channel.startsWith('D') ? 'directmessage' : `chan-${channel.toLowerCase()}`,
          user_id: user,
          user_name: state.users.get(user)?.toLowerCase() ?? user,
          command,
          text,
          api_app_id: 'A0TEST',
          is_enterprise_install: 'false',
          response_url: `${state.origin}/commands/${randomUUID()}`,
          trigger_id: `${Date.now()}.${randomUUID().slice(0, 8)}`,
        },
        {},
        true,
      ),
    pressButton: ({ ts, user, label }) => {
      const msg = state.messages.get(ts);
      if (!msg) throw new Error(`no bot message ${ts}`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const blocks = (msg.blocks ?? []) as any[];
      const actions = blocks.find((b) => b.type === 'actions');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const button = actions?.elements?.find((e: any) => String(e.text?.text ?? '').startsWith(label));
      if (!button) throw new Error(`no button "${label}" on message ${ts}`);
      return deliver('interactive', {
        type: 'block_actions',
        user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: state.teamId },
        api_app_id: 'A0TEST',
        token: 'legacy-verification-token',
        container: { type: 'message', message_ts: ts, channel_id: msg.channel, is_ephemeral: false },
        trigger_id: `${Date.now()}.${randomUUID().slice(0, 8)}`,
        team: { id: state.teamId, domain: 'hermes-test' },
        enterprise: null,
        is_enterprise_install: false,
        channel: { id: msg.channel, name: `chan-${msg.channel.toLowerCase()}` },
        message: {
          type: 'message',
          user: state.botUserId,
          bot_id: state.botId,
          text: msg.text,
          ts,
          ...(msg.thread_ts ? { thread_ts: msg.thread_ts } : {}),
          blocks: msg.blocks,
        },
        state: { values: {} },
        response_url: `${state.origin}/actions/${randomUUID()}`,
        actions: [
          {
            action_id: button.action_id,
            block_id: actions.block_id,
            text: button.text,
            value: button.value,
            type: 'button',
            action_ts: `${Date.now() / 1000}`,
          },
        ],
      });
    },
    dropSocket: () => socket?.terminate(),
    sendDisconnect: (reason) =>
      socket?.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } })),
    waitForCall: (pred, what, timeoutMs) => waitFor(() => state.calls.find(pred), what, timeoutMs),
    waitFor,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
