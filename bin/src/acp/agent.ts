/**
 * The ACP agent side of `hermes acp`: an `@agentclientprotocol/sdk` agent app whose sessions are
 * ordinary daemon sessions, driven through one `@hermes/client` connection. The editor's prompts
 * become `prompt.submit`, the session's events become `session/update`s, approvals and clarify
 * questions become `session/request_permission` (any other attached client may answer first: the
 * daemon's first answer wins, and the editor's question is withdrawn), `session/cancel` becomes
 * `session.interrupt`. The daemon's server requests (files, approvals, clarify): server-requests.ts.
 */
import {
  PROTOCOL_VERSION,
  RequestError,
  agent,
  type AgentApp,
  type AgentContext,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { RpcCallError, type DaemonClient } from '@hermes/client';
import { RpcErrorCode } from '@hermes/core/constants';
import type { WireEvent } from '@hermes/core/protocol';
import { EventTranslator, text } from './event-map.js';
import { historyUpdates } from './history.js';
import { imageAttachments, profileTakesImages } from './prompt-images.js';
import { promptText } from './prompt-text.js';
import { approvalModeOf, modeState } from './modes.js';
import { listedSessions } from './session-list.js';
import { serveServerRequests } from './server-requests.js';
import { availableCommands, daemonCommandLine } from './slash.js';

/** Stored messages replayed by `session/load` (the newest ones). */
export const LOAD_HISTORY_LIMIT = 1_000;
/** Settled request ids remembered (see `settled`). */
const MAX_SETTLED = 256;
/** Sessions `session/list` looks through (the newest ones; no further pages). */
export const LIST_LIMIT = 500;

/** What `createAcpAgent` needs. */
export interface AcpAgentOptions {
  /**
   * A connected client of the daemon, in the profile to serve, with `capabilities.approvals` and
   * `clarify`; with `reconnect` the sessions survive a lost connection (re-attached by the client).
   */
  daemon: DaemonClient;
  /** Version reported in `agentInfo`. */
  version: string;
  /** One diagnostic line (stderr or a log file; never stdout, which carries the protocol). */
  log: (line: string) => void;
}

/** One editor session: a daemon session and what translating its events needs (and asking in it). */
export interface AcpSession {
  id: string;
  translator: EventTranslator;
  /** Ids of prompts the editor sent (their `turn.start` text is not echoed back). */
  own: Set<string>;
  /** Prompts waiting for their `turn.end`, by prompt id. */
  waiting: Map<string, (status: string) => void>;
  /** While > 0 events are held (a submit or load in flight), then handled in order. */
  holds: number;
  held: WireEvent[];
  /** The last `error` event's message (the reason of a turn that ends with `error`). */
  lastError?: string;
  /** Open permission questions by request id: aborted when the request is settled elsewhere. */
  asking: Map<string, AbortController>;
  /** The approval mode the editor was last told (`current_mode_update` when it changes). */
  mode?: string;
  /** The session's folder (a file edit's path is resolved against it). */
  cwd: string;
}

/** The agent: create it, then `app.connect(stream)`. */
export interface AcpAgent {
  app: AgentApp;
  /** Detaches every session (their turns go on in the daemon). */
  close(): Promise<void>;
}

/** Builds the agent app over `opts.daemon`. */
export function createAcpAgent(opts: AcpAgentOptions): AcpAgent {
  const { daemon, log } = opts;
  const sessions = new Map<string, AcpSession>();
  /** Daemon session ids → the editor's id (a compressed session continues under a new id). */
  const aliases = new Map<string, string>();
  let editor: AgentContext | undefined;
  /** What the editor's file system offers (ACP `clientCapabilities.fs`, from `initialize`). */
  let editorFs = { readTextFile: false, writeTextFile: false };
  /**
   * Ids of requests settled (`request.resolved`), newest last: a server request's handler runs a
   * tick after it arrives, so the event that settles it (another client was first) may come before.
   */
  const settled = new Set<string>();
  /** Updates go out one after another, so the editor sees them in the daemon's order. */
  let chain: Promise<void> = Promise.resolve();

  const send = (sessionId: string, updates: readonly SessionUpdate[]): Promise<void> => {
    for (const update of updates) {
      chain = chain.then(async () => {
        try {
          await editor?.notify('session/update', { sessionId, update });
        } catch (err) {
          log(`could not send an update: ${(err as Error).message}`);
        }
      });
    }
    return chain;
  };

  const sessionOf = (daemonId: string): AcpSession | undefined =>
    sessions.get(aliases.get(daemonId) ?? daemonId);

  const handle = (s: AcpSession, ev: WireEvent): void => {
    switch (ev.type) {
      case 'session.compressed':
        aliases.set(ev.payload.session_id, s.id);
        return;
      case 'error':
        if (ev.payload.kind !== 'notice') s.lastError = ev.payload.message;
        return;
      case 'request.resolved': {
        const id = String(ev.payload.request_id);
        settled.add(id);
        if (settled.size > MAX_SETTLED) settled.delete(settled.values().next().value!);
        s.asking.get(id)?.abort();
        return;
      }
      case 'turn.end': {
        const done = s.waiting.get(ev.payload.prompt_id);
        if (done) void chain.then(() => done(ev.payload.status));
        return;
      }
      case 'session.info': {
        const mode = ev.payload.session.approval_mode;
        if (mode && s.mode !== undefined && mode !== s.mode) {
          s.mode = mode;
          void send(s.id, [{ sessionUpdate: 'current_mode_update', currentModeId: mode }]);
        }
        break;
      }
    }
    const own = ev.type === 'turn.start' && s.own.has(ev.payload.prompt_id);
    void send(s.id, s.translator.translate(ev, own));
  };

  daemon.onEvent((ev) => {
    const s = sessionOf(ev.session_id);
    if (!s) return;
    if (s.holds > 0) s.held.push(ev);
    else handle(s, ev);
  });
  const hold = (s: AcpSession): (() => void) => {
    s.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--s.holds === 0) for (const ev of s.held.splice(0)) handle(s, ev);
    };
  };

  // A prompt does not outlive the connection it was sent on: when the daemon goes away, waiting
  // prompts end with an error and open questions are withdrawn. Once the client reconnects (a
  // replaced daemon, or the same one) the sessions are re-attached and updates flow again.
  daemon.on('state', (state) => {
    if (state !== 'reconnecting' && state !== 'disconnected') return;
    for (const s of sessions.values()) {
      for (const done of s.waiting.values()) done('disconnected');
      for (const asked of s.asking.values()) asked.abort();
    }
  });
  daemon.on('attachError', (err, { sessionId }) =>
    log(`session ${sessionId} could not be re-attached: ${err.message}`),
  );

  serveServerRequests({
    daemon,
    log,
    sessionOf,
    editor: () => editor,
    editorFs: () => editorFs,
    settled,
    send,
  });

  /**
   * Tells the editor which slash commands the session takes (`available_commands_update`), once
   * the answer naming the session is out (a macrotask later: the answer is written first).
   */
  const announceCommands = (sessionId: string): void => {
    setTimeout(
      () =>
        void send(sessionId, [
          { sessionUpdate: 'available_commands_update', availableCommands: availableCommands() },
        ]),
      0,
    );
  };

  /** Registers a session the editor now holds, attaches to it, and returns its snapshot. */
  const open = async (id: string, cwd: string, historyLimit: number) => {
    const s: AcpSession = {
      id,
      translator: new EventTranslator(cwd),
      own: new Set(),
      waiting: new Map(),
      holds: 0,
      held: [],
      asking: new Map(),
      cwd,
    };
    const release = hold(s);
    sessions.set(id, s);
    try {
      const snap = await daemon.attach(id, { historyLimit });
      return { s, snap, release };
    } catch (err) {
      sessions.delete(id);
      release();
      throw err;
    }
  };

  const app = agent({ name: 'hermes' })
    .onConnect((conn) => {
      editor = conn.client;
    })
    .onRequest('initialize', async ({ params }) => {
      editorFs = {
        readTextFile: params.clientCapabilities?.fs?.readTextFile === true,
        writeTextFile: params.clientCapabilities?.fs?.writeTextFile === true,
      };
      // images when the profile's model takes them (the daemon still checks each prompt)
      const image = await profileTakesImages(daemon);
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: { name: 'hermes', title: 'Hermes', version: opts.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: { list: {} },
        },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params }) => {
      ignoredMcp(params.mcpServers.length, log);
      let created;
      try {
        created = await daemon.request('session.create', { source: 'acp', cwd: params.cwd });
      } catch (err) {
        throw daemonError(err);
      }
      const { s, snap, release } = await open(created.session.id, created.session.cwd ?? params.cwd, 1);
      const modes = modeState(snap.session);
      s.mode = modes.currentModeId;
      release();
      announceCommands(created.session.id);
      return { sessionId: created.session.id, modes };
    })
    .onRequest('session/load', async ({ params }) => {
      ignoredMcp(params.mcpServers.length, log);
      let opened;
      try {
        opened = await open(params.sessionId, params.cwd, LOAD_HISTORY_LIMIT);
      } catch (err) {
        if (err instanceof RpcCallError && err.code === RpcErrorCode.SessionNotFound)
          throw RequestError.resourceNotFound(params.sessionId);
        throw daemonError(err);
      }
      const { s, snap, release } = opened;
      const modes = modeState(snap.session);
      s.mode = modes.currentModeId;
      if (snap.kind === 'snapshot')
        void send(s.id, historyUpdates(snap.messages, s.translator, snap.inflight));
      const replayed = chain;
      release(); // live events follow the replay
      await replayed;
      announceCommands(s.id);
      return { modes };
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const s = sessions.get(params.sessionId);
      if (!s) throw RequestError.resourceNotFound(params.sessionId);
      const mode = approvalModeOf(params.modeId);
      if (!mode) throw RequestError.invalidParams(undefined, `unknown mode ${JSON.stringify(params.modeId)}`);
      try {
        const set = await daemon.request('session.approvals.set', { session_id: s.id, mode });
        s.mode = set.mode;
      } catch (err) {
        throw daemonError(err);
      }
      return {};
    })
    .onRequest('session/list', async ({ params }) => {
      try {
        const { sessions: all } = await daemon.request('session.list', { limit: LIST_LIMIT });
        return { sessions: listedSessions(all, params.cwd) };
      } catch (err) {
        throw daemonError(err);
      }
    })
    .onRequest('session/prompt', async ({ params }) => {
      const s = sessions.get(params.sessionId);
      if (!s) throw RequestError.resourceNotFound(params.sessionId);
      const hasImages = params.prompt.some((b) => b.type === 'image');
      const words = promptText(params.prompt);
      if (words.trim() === '' && !hasImages)
        throw RequestError.invalidParams(undefined, 'the prompt is empty');
      const body = words.trim() === '' ? '(see the attached image)' : words;
      const command = params.prompt.every((b) => b.type === 'text') ? daemonCommandLine(body) : null;
      if (command) {
        let ran;
        try {
          ran = await daemon.request('slash.exec', { session_id: s.id, command });
        } catch (err) {
          throw daemonError(err);
        }
        if (ran.handled) {
          await send(s.id, [{ sessionUpdate: 'agent_message_chunk', content: text(ran.output) }]);
          return { stopReason: 'end_turn' as const };
        }
      }
      const release = hold(s);
      let promptId: string;
      let status: string;
      const images = await imageAttachments(params.prompt);
      try {
        const submitted = await daemon
          .request('prompt.submit', {
            session_id: s.id,
            text: body,
            ...(images.attachments.length ? { attachments: images.attachments } : {}),
          })
          .finally(() => images.cleanup());
        promptId = submitted.prompt_id;
        s.own.add(promptId);
        const ended = new Promise<string>((resolve) => s.waiting.set(promptId, resolve));
        s.lastError = undefined;
        release();
        status = await ended;
      } catch (err) {
        release();
        throw daemonError(err);
      } finally {
        release();
      }
      s.waiting.delete(promptId);
      s.own.delete(promptId);
      return { stopReason: stopReasonOf(status, s.lastError) };
    })
    .onNotification('session/cancel', async ({ params }) => {
      if (!sessions.has(params.sessionId)) return;
      await daemon.request('session.interrupt', { session_id: params.sessionId }).catch((err: Error) => {
        log(`cancel failed: ${err.message}`);
      });
    });

  return {
    app,
    async close() {
      for (const id of sessions.keys()) await daemon.detach(id).catch(() => undefined);
    },
  };
}

/**
 * The ACP stop reason of a turn's end status.
 * @throws RequestError (internal error with the turn's error message) for `error` and a lost daemon.
 */
export function stopReasonOf(status: string, error?: string): StopReason {
  switch (status) {
    case 'complete':
      return 'end_turn';
    case 'interrupted':
      return 'cancelled';
    case 'max_turns':
      return 'max_turn_requests';
    case 'disconnected':
      throw RequestError.internalError(
        undefined,
        'lost the connection to the Hermes daemon; the turn was interrupted there or goes on (its reply is kept in the session)',
      );
    default:
      throw RequestError.internalError(undefined, error ?? `the turn ended with status ${status}`);
  }
}

/** A daemon error as the ACP error the editor shows (its message kept). */
function daemonError(err: unknown): RequestError {
  if (err instanceof RequestError) return err;
  const message = (err as Error)?.message ?? String(err);
  if (err instanceof RpcCallError && err.code === RpcErrorCode.InvalidParams)
    return RequestError.invalidParams(undefined, message);
  return RequestError.internalError(undefined, message);
}

/** Says once per session that the editor's MCP servers are not used (the profile's are). */
function ignoredMcp(count: number, log: (line: string) => void): void {
  if (count > 0)
    log(`${count} MCP server(s) from the editor ignored: the profile's config.yaml mcp_servers apply`);
}
