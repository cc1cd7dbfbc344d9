/**
 * Route records: how a platform session remembers, inside state.db, which session key it serves,
 * so a lost or deleted `sessions.json` can be rebuilt from the database.
 *
 * The record is a second `system` message of the session, written when the session is created:
 * `tool_name` = `gateway.route`, content = a searchable token (`gwr` + 32 hex of SHA-256 of the
 * key) on the first line and `{key, source}` as JSON on the second. Frontends and the history
 * loader ignore system messages after the first (the system prompt), so the model never sees it.
 * Lookup searches the token with FTS and then compares the full key, so a hash collision can
 * never route one person's chat into another's session.
 */
import { createHash } from 'node:crypto';
import type {
  ListSessionsOptions,
  MessageRecord,
  NewMessage,
  SearchHit,
  SearchOptions,
  SessionRecord,
} from '../state/types.js';
import { sourceFromJson, sourceToJson, type MessageSource } from './source.js';

/** `tool_name` of route records. */
export const ROUTE_RECORD_TOOL = 'gateway.route';

/** The database operations the session store uses; `SessionDB` satisfies it. */
export interface RouteDb {
  getSession(id: string): SessionRecord | undefined;
  endSession(id: string, reason: string): void;
  appendMessage(sessionId: string, msg: NewMessage): number;
  search(query: string, opts?: SearchOptions): SearchHit[];
  getMessage(id: number): MessageRecord | undefined;
  listSessions(opts?: ListSessionsOptions): SessionRecord[];
}

/** `end_reason` of a session whose conversation context compression continued in a child. */
export const COMPRESSED_END_REASON = 'compressed';

/** How many recent sessions of the platform are scanned for a compression child. */
const CHILD_SCAN_LIMIT = 2000;

/**
 * Follows context compression (the agent ends a session with `compressed` and continues in a
 * child whose `parent_session_id` points back) to the newest session of the conversation.
 * @returns that session (the given one when it was not compressed), or undefined when missing.
 */
export function followCompression(db: RouteDb, sessionId: string): SessionRecord | undefined {
  let current = db.getSession(sessionId);
  for (let hops = 0; current && hops < 50; hops++) {
    if (current.end_reason !== COMPRESSED_END_REASON) return current;
    const parentId = current.id;
    const child = db
      .listSessions({ source: current.source, limit: CHILD_SCAN_LIMIT })
      .filter((s) => s.parent_session_id === parentId)
      .sort((a, b) => b.started_at - a.started_at)[0];
    if (!child) return current;
    current = child;
  }
  return current;
}

/** The search token of a session key. */
export function routeToken(key: string): string {
  return `gwr${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32)}`;
}

/** Writes the route record of a new platform session. */
export function writeRouteRecord(db: RouteDb, sessionId: string, key: string, source: MessageSource): void {
  db.appendMessage(sessionId, {
    role: 'system',
    content: `${routeToken(key)}\n${JSON.stringify({ key, source: sourceToJson(source) })}`,
    tool_name: ROUTE_RECORD_TOOL,
  });
}

/** Parses a route record message; undefined when it is not one. */
export function readRouteRecord(
  msg: MessageRecord | undefined,
): { key: string; source?: MessageSource } | undefined {
  if (!msg || msg.role !== 'system' || msg.tool_name !== ROUTE_RECORD_TOOL || !msg.content) return undefined;
  const nl = msg.content.indexOf('\n');
  try {
    const data = JSON.parse(msg.content.slice(nl + 1)) as { key?: unknown; source?: unknown };
    if (typeof data.key !== 'string') return undefined;
    const source = sourceFromJson(data.source);
    return { key: data.key, ...(source ? { source } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Finds the most recently started session whose route record names exactly `key`.
 * @param includeEnded also return ended sessions (default false).
 */
export function findRouteSession(db: RouteDb, key: string, includeEnded = false): SessionRecord | undefined {
  let best: SessionRecord | undefined;
  for (const hit of db.search(routeToken(key), { role: 'system', limit: 50 })) {
    const rec = readRouteRecord(db.getMessage(hit.message_id));
    if (rec?.key !== key) continue;
    const session = followCompression(db, hit.session_id);
    if (!session || (!includeEnded && session.ended_at !== null)) continue;
    if (!best || session.started_at > best.started_at) best = session;
  }
  return best;
}
