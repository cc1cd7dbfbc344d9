/**
 * The one mapping from what happened in a turn to transcript item drafts, used both for live
 * events (session-reducer.ts) and for stored history (history-items.ts), so a transcript rebuilt
 * from history reads the same as it did live: tool lines with their outcome mark, summary and
 * duration, approval outcomes, errors, interrupted replies.
 */
import type { EventPayload } from '@hermes/core/protocol';
import { capDetail } from '@hermes/core/constants';
import type { AssistantItem, NoticeItem, ToolItem } from './types.js';

/**
 * A finished tool call as `tool.complete` (live) or a stored outcome (history) tells it: the tool
 * item's fields (`blocked` from `tool.complete.blocked.reason` or the stored outcome's).
 */
export type ToolFacts = Omit<ToolItem, 'kind'>;

/**
 * The item of a finished tool call. A call refused before it ran (`f.blocked`, e.g. the approval
 * guard denied it) carries `blocked` with the reason, so it reads `✗ Blocked CMD (denied)`.
 */
export function toolDraft(f: ToolFacts): ToolItem {
  const blocked = f.ok !== true ? f.blocked : undefined;
  return {
    kind: 'tool',
    toolId: f.toolId,
    name: f.name,
    args: f.args,
    summary: f.summary,
    ok: f.ok,
    durationMs: f.durationMs,
    ...(f.detail ? { detail: capDetail(f.detail) } : {}),
    ...(blocked !== undefined ? { blocked } : {}),
  };
}

/** The item of a finished assistant reply; null when it has no text (nothing to show). */
export function assistantDraft(text: string, status: string): AssistantItem | null {
  return text.trim() ? { kind: 'assistant', text, status: status || 'complete' } : null;
}

/** The notice of a failed turn (`error` event, or a stored reply's error). */
export function errorDraft(message: string): NoticeItem {
  return { kind: 'notice', text: `Error: ${message}`, tone: 'error' };
}

/**
 * Who this client is in a `by` label: `client:<instanceId>` (its answers since it sends an
 * instance id, the same after a reconnect or a `/profile` round trip) or `connection:<id>` (the
 * current connection; answers of older daemons).
 */
export interface AnswerSelf {
  connectionId: string | null;
  instanceId: string | null;
}

/** Nobody: every answer reads as given elsewhere. */
export const NO_SELF: AnswerSelf = { connectionId: null, instanceId: null };

/** True when `by` names this client. */
export function isOwnAnswer(by: string, self: AnswerSelf): boolean {
  return (
    (self.instanceId !== null && by === `client:${self.instanceId}`) ||
    (self.connectionId !== null && by === `connection:${self.connectionId}`)
  );
}

/** Words a resolved request: which answer was given, and by whom. */
export function describeResolution(
  kind: 'approval' | 'clarify',
  choice: unknown,
  by: string,
  self: AnswerSelf,
): { text: string; tone: 'info' | 'warn' } {
  const who = isOwnAnswer(by, self)
    ? 'answered here'
    : by.startsWith('connection:') || by.startsWith('client:')
      ? 'answered in another window'
      : by === 'timeout'
        ? 'no answer in time'
        : by === 'interrupt'
          ? 'turn interrupted'
          : /^[a-z0-9_-]+:./.test(by)
            ? `answered from ${by.slice(0, by.indexOf(':'))} by ${by.slice(by.indexOf(':') + 1)}`
            : `by ${by}`;
  if (kind === 'clarify') {
    return choice === null || choice === undefined
      ? { text: `Question cancelled (${who})`, tone: 'warn' }
      : { text: `Question answered: ${String(choice)} (${who})`, tone: 'info' };
  }
  const words: Record<string, string> = {
    once: '✓ Approved once',
    session: '✓ Approved for this session',
    always: '✓ Approved always',
  };
  const c = typeof choice === 'string' ? choice : 'deny';
  const text = words[c] ?? '✗ Denied';
  return { text: `${text} (${who})`, tone: text.startsWith('✗') ? 'warn' : 'info' };
}

/** The notice of a resolved request (`request.resolved`, or an approval stored with a tool call). */
export function resolutionDraft(
  kind: 'approval' | 'clarify',
  choice: unknown,
  by: string,
  self: AnswerSelf,
): NoticeItem {
  const { text, tone } = describeResolution(kind, choice, by, self);
  return { kind: 'notice', text, tone };
}

/** A short form of a config value for a notice line. */
function shown(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The `loosened` list of a `config.changed` payload. */
type Loosened = NonNullable<EventPayload<'config.changed'>['loosened']>;

/**
 * The warning lines for a `config.changed` payload's `loosened` list: one per loosened approval
 * setting, naming who changed it (`by`) or "outside Hermes", and that it applies from the next
 * turn (a running turn keeps its settings). Lists name the entries added. Empty without any.
 */
export function loosenedNotices(loosened: Loosened): NoticeItem[] {
  const out: NoticeItem[] = [];
  for (const l of loosened) {
    const who = l.by !== undefined ? `by ${l.by}` : 'outside Hermes';
    // `from`/`to` are config values of any shape: lists name the entries added
    const from = l.from;
    const what =
      Array.isArray(l.to) && Array.isArray(from)
        ? `${l.key} gained ${l.to
            .filter((x) => !from.includes(x))
            .map(shown)
            .join(', ')}`
        : `${l.key} changed to ${shown(l.to)}`;
    out.push({ kind: 'notice', text: `${what} ${who} — applies from the next turn`, tone: 'warn' });
  }
  return out;
}
