/**
 * Turns stored history (a snapshot's messages and in-flight turn) into transcript item drafts,
 * and merges a fresh snapshot into what is already on screen without duplicating or dropping a
 * message (after a reconnect with `truncated`, or a daemon restart). Items are built by the same
 * functions as live events (event-items.ts), from the outcome stored with each message, so
 * history reads as the turn did live.
 */
import type { Inflight, StoredMessage } from '@hermes/core/protocol';
import {
  assistantDraft,
  errorDraft,
  NO_SELF,
  resolutionDraft,
  toolDraft,
  type AnswerSelf,
} from './event-items.js';
import type { ItemDraft, TranscriptItem } from './types.js';

/** First non-empty line of a text, shortened. */
export function firstLine(text: string, max = 120): string {
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The summary the approval guard gave a refused `terminal`/`execute_code` call before results
 * carried `blocked` (history stored by an older daemon): `blocked (denied)`.
 */
const LEGACY_BLOCKED = /^blocked \((denied|timeout|no_frontend|interrupted)\)$/;

/**
 * `{blocked: reason}` of a stored call (outcome or in-flight entry), as `tool.complete.blocked`
 * gave it live; for results stored before that field existed, read from the guard's summary of
 * the only tools it refused then (which now always set the field, so live and history agree).
 */
function storedBlocked(
  tool: string | null | undefined,
  o: { ok?: boolean; blocked?: { reason: string } } | undefined,
  summary: string,
): { blocked?: string } {
  if (o?.blocked) return { blocked: o.blocked.reason };
  if (o?.ok === true || (tool !== 'terminal' && tool !== 'execute_code')) return {};
  const legacy = LEGACY_BLOCKED.exec(summary.trim())?.[1];
  return legacy ? { blocked: legacy } : {};
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Drafts for stored messages plus the in-flight turn's parts that are not stored yet.
 * A stored `streaming` assistant message is the in-flight reply itself: it is left to the live
 * part while a turn runs, and shown as interrupted when no turn runs (the daemon died mid-reply).
 */
export function draftsFromHistory(
  messages: StoredMessage[],
  inflight: Inflight | null,
  /** Who this client is (words who answered an approval: here, or in another window). */
  self: AnswerSelf = NO_SELF,
): ItemDraft[] {
  const calls = new Map<string, { name: string; args: Record<string, unknown> }>();
  const out: ItemDraft[] = [];
  for (const m of messages) {
    const content = m.content ?? '';
    if (m.role === 'user') {
      out.push({
        kind: 'user',
        text: content,
        ...(m.status === 'guidance' ? { guidance: true } : {}),
        ...(m.attachments?.length ? { attachments: m.attachments } : {}),
      });
    } else if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) calls.set(c.id, { name: c.name, args: parseArgs(c.arguments) });
      if (m.status === 'streaming' && inflight) continue;
      // live: the `error` event, then the reply's `message.complete`
      if (m.outcome?.error !== undefined) out.push(errorDraft(m.outcome.error));
      const status = m.status === 'streaming' ? 'interrupted' : (m.status ?? 'complete');
      const item = assistantDraft(content, status);
      if (item) out.push(item);
    } else {
      const id = m.tool_call_id ?? `tool-${m.id}`;
      const call = calls.get(id);
      const o = m.outcome;
      // live: approvals are answered while the tool runs, before its `tool.complete`
      for (const a of o?.approvals ?? []) out.push(resolutionDraft('approval', a.choice, a.by, self));
      out.push(
        toolDraft({
          toolId: id,
          name: m.tool_name ?? call?.name ?? 'tool',
          args: call?.args ?? {},
          summary: o?.summary || firstLine(content),
          ok: o?.ok ?? null,
          durationMs: o?.duration_ms ?? null,
          detail: content,
          ...storedBlocked(m.tool_name ?? call?.name, o, o?.summary || firstLine(content)),
        }),
      );
    }
  }
  if (inflight) {
    const lastUser = [...out].reverse().find((d) => d.kind === 'user');
    if (inflight.prompt && lastUser?.text !== inflight.prompt)
      out.push({ kind: 'user', text: inflight.prompt });
    const known = new Set(out.flatMap((d) => (d.kind === 'tool' ? [d.toolId] : [])));
    for (const t of inflight.completed_tools ?? []) {
      if (known.has(t.tool_id)) continue;
      out.push(
        toolDraft({
          toolId: t.tool_id,
          name: t.name || 'tool',
          args: {},
          summary: t.summary,
          ok: t.ok,
          durationMs: t.duration_ms,
          ...storedBlocked(t.name, t, t.summary),
        }),
      );
    }
  }
  return out;
}

/** Identity of an item for matching screen against history; notices have none. */
export function itemKey(d: ItemDraft): string | null {
  switch (d.kind) {
    case 'user':
      return `u:${d.text.trim()}`;
    case 'assistant':
      // a reply printed in parts: its parts are matched through the items around them, its last
      // item by the whole reply (as stored)
      return d.part ? null : `a:${(d.whole ?? d.text).trim()}`;
    case 'tool':
      return `t:${d.toolId}`;
    default:
      return null;
  }
}

/**
 * Which drafts of a fresh snapshot are not on screen yet. The snapshot holds the latest stored
 * messages in order; what the screen shows is a prefix of that sequence. The newest shown item is
 * looked up in the snapshot (checked against up to three items before it) and everything after it
 * is new. When nothing shown is found, everything is new and `gap` tells that messages in between
 * may be missing from the screen.
 */
export function newDraftsAfter(
  shown: TranscriptItem[],
  drafts: ItemDraft[],
): { fresh: ItemDraft[]; gap: boolean } {
  // messages printed by /history are older than the snapshot: never matched against it
  const shownKeys = shown
    .filter((i) => !i.older)
    .map(itemKey)
    .filter((k): k is string => k !== null);
  if (shownKeys.length === 0) return { fresh: drafts, gap: false };
  // notices (approval outcomes, errors) have no identity: matched through the items around them
  const at = drafts.flatMap((d, i) => (itemKey(d) === null ? [] : [i]));
  const keys = at.map((i) => itemKey(drafts[i]!));
  const last = shownKeys[shownKeys.length - 1];
  for (let j = keys.length - 1; j >= 0; j--) {
    if (keys[j] !== last) continue;
    let ok = true;
    for (let back = 1; back <= 3; back++) {
      const sk = shownKeys[shownKeys.length - 1 - back];
      const dk = keys[j - back];
      if (sk === undefined || dk === undefined) break;
      if (sk !== dk) {
        ok = false;
        break;
      }
    }
    if (ok) return { fresh: drafts.slice(at[j]! + 1), gap: false };
  }
  return { fresh: drafts, gap: true };
}
