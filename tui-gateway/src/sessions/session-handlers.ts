/**
 * RPC handlers of the session layer: session.*, prompt.submit,
 * session.interrupt, config.*, model.*, profile.list, slash.exec. Each works inside the profile
 * of the connection (or the `profile` param), never across profiles.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { getConfigValue, ConfigError } from '@hermes/core/config';
import { RpcErrorCode } from '@hermes/core/protocol';
import { domainRpcError } from '../rpc/domain-errors.js';
import type { Connection, HandlerRegistry } from '../rpc/types.js';
import { RpcMethodError } from '../rpc/types.js';
import { toStoredMessage } from './live-session.js';
import { registerAnswerHandlers } from './answer-handlers.js';
import { registerModelHandlers } from './model-handlers.js';
import type { SessionRegistry } from './session-registry.js';
import { connectionLabel, registerConfigSet } from './config-set-handler.js';
import { registerConversationHandlers } from './conversation-handlers.js';
import { sessionPromptImages } from './prompt-images.js';
import { runSlashCommand } from './slash-commands.js';
import { attachReferences, inSubmitOrder, registerReferenceHandlers } from './reference-handlers.js';

function profileOf(conn: Connection, requested?: string): string {
  return requested ?? conn.profile;
}

/** Rethrows a ConfigError as -32006 naming the file and key (the same answer as every method). */
function configError(err: unknown): never {
  throw (err instanceof ConfigError && domainRpcError(err)) || err;
}

/** Registers the session layer's methods on the daemon's dispatcher. */
export function registerSessionHandlers(rpc: HandlerRegistry, sessions: SessionRegistry): void {
  rpc.register('session.create', async (p, conn) => {
    if (p.cwd !== undefined && !isAbsolute(p.cwd)) {
      throw new RpcMethodError(RpcErrorCode.InvalidParams, `cwd: "${p.cwd}" is not an absolute path`);
    }
    if (p.cwd !== undefined && !existsSync(p.cwd)) {
      throw new RpcMethodError(RpcErrorCode.InvalidParams, `cwd: folder "${p.cwd}" does not exist`);
    }
    const live = sessions.create(profileOf(conn, p.profile), {
      ...(p.cwd ? { cwd: p.cwd } : {}),
      ...(p.title ? { title: p.title } : {}),
      ...(p.model ? { model: p.model } : {}),
      ...(p.source ? { source: p.source } : {}),
    });
    return { session: live.info() };
  });

  rpc.register('session.list', async (p, conn) => {
    const name = profileOf(conn, p.profile);
    if (p.continue_from) {
      // the continue rule lives with the database, here: the TUI process never opens state.db
      const profile = sessions.profile(name);
      const pick = profile.db.continueSession({ cwd: p.continue_from });
      return { sessions: pick ? [sessions.describe(profile, pick)] : [] };
    }
    return {
      sessions: sessions.list(name, {
        ...(p.limit ? { limit: p.limit } : {}),
        ...(p.query ? { query: p.query } : {}),
        ...(p.source ? { source: p.source } : {}),
      }),
    };
  });

  rpc.register('session.attach', async (p, conn) =>
    sessions.get(conn.profile, p.session_id).attach(conn, p.since_seq, p.history_limit),
  );

  rpc.register('session.detach', async (p, conn) => {
    sessions.peek(conn.profile, p.session_id)?.detach(conn);
    return { ok: true as const };
  });

  rpc.register('session.close', async (p, conn) => {
    const live = sessions.peek(conn.profile, p.session_id);
    if (live?.busy) {
      live.interrupt();
      await live.idle();
    }
    const db = sessions.profile(conn.profile).db;
    const id = live?.id ?? p.session_id; // after compression: the child session
    if (!db.getSession(id)) throw new RpcMethodError(RpcErrorCode.SessionNotFound, `no session "${id}"`);
    db.endSession(id, 'closed');
    sessions.unload(conn.profile, id);
    return { ok: true as const };
  });

  rpc.register('session.history', async (p, conn) => {
    // message ids start at 1: `before` below 1 names no message and is refused, not read as "all"
    if (p.before !== undefined && p.before < 1)
      throw new RpcMethodError(
        RpcErrorCode.InvalidParams,
        `before: ${p.before} is not a message id (ids are positive integers)`,
      );
    const db = sessions.profile(conn.profile).db;
    if (!db.getSession(p.session_id))
      throw new RpcMethodError(RpcErrorCode.SessionNotFound, `no session "${p.session_id}"`);
    const limit = p.limit ?? 100;
    const rows = db
      .getMessages(p.session_id, {
        limit: limit + 1,
        ...(p.before !== undefined ? { before: p.before } : {}),
      })
      .filter((m) => m.role !== 'system');
    const hasMore = rows.length > limit;
    return {
      messages: (hasMore ? rows.slice(rows.length - limit) : rows).map(toStoredMessage),
      has_more: hasMore,
    };
  });

  rpc.register('session.events.since', async (p, conn) =>
    sessions.get(conn.profile, p.session_id).eventsSince(p.since_seq),
  );

  rpc.register('prompt.submit', async (p, conn) => {
    if (sessions.isDraining)
      throw new RpcMethodError(
        RpcErrorCode.ShuttingDown,
        'the daemon is shutting down; try again after it restarts',
      );
    const live = sessions.get(conn.profile, p.session_id);
    if (!sessions.profile(conn.profile).db.getSession(live.id)) {
      // deleted from state.db while loaded (an older `hermes sessions delete`): say so, never drop it
      if (!live.busy) sessions.unload(conn.profile, live.id);
      throw new RpcMethodError(
        RpcErrorCode.SessionNotFound,
        `session ${live.id} was deleted; start a new one (/new) or pick another (/sessions)`,
      );
    }
    // images are checked and stored now (a refusal fails the request before anything queues)
    const images = sessionPromptImages(sessions.profile(conn.profile), live.id, p.attachments);
    const references = p.attachments?.filter((a) => a.kind !== 'image');
    return inSubmitOrder(live, async () => {
      const text = await attachReferences(sessions, conn, live, p.text, references);
      return live.submit(text, connectionLabel(conn), p.origin, images);
    });
  });

  rpc.register('session.interrupt', async (p, conn) => ({
    interrupted: sessions.peek(conn.profile, p.session_id)?.interrupt() ?? false,
  }));

  rpc.register('session.approvals.set', async (p, conn) =>
    sessions.setApprovalMode(conn.profile, p.session_id, p.mode ?? undefined, conn),
  );

  rpc.register('config.get', async (p, conn) => {
    const profile = sessions.profile(profileOf(conn, p.profile));
    try {
      const config = profile.config;
      return { value: p.key ? (getConfigValue(config, p.key) ?? null) : config };
    } catch (err) {
      configError(err);
    }
  });

  registerConfigSet(rpc, sessions);

  registerModelHandlers(rpc, sessions);

  rpc.register('profile.list', async (_p, conn) => {
    const unavailable = new Map(sessions.unavailableProfiles().map((u) => [u.profile, u.error]));
    return {
      active: conn.profile,
      profiles: sessions.profileNames().map((name) => {
        const rt = sessions.profile(name);
        let model: string | undefined;
        try {
          model = rt.config.model.default || undefined;
        } catch {
          model = undefined;
        }
        const why = unavailable.get(name);
        return {
          name,
          path: rt.home.dir,
          active: name === conn.profile,
          ...(model ? { model } : {}),
          ...(why ? { unavailable: why } : {}),
        };
      }),
    };
  });

  rpc.register('slash.exec', async (p, conn) => runSlashCommand(sessions, conn, p.session_id, p.command));

  registerAnswerHandlers(rpc, sessions);
  registerReferenceHandlers(rpc, sessions);
  registerConversationHandlers(rpc, sessions);
}
