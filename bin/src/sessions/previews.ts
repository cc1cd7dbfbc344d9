/**
 * Telling sessions apart in `hermes sessions list` and `search` (user-trial finding 14): an
 * untitled session shows its first prompt (one line, ~60 characters) in the title column, and a
 * search hit inside a tool call shows `tool: name(args…)` instead of the call's raw JSON.
 */
import { type SessionDB, previewText, type SearchHit, type SessionRecord } from '@hermes/core/state';
import { summarizeToolCalls } from './format.js';

/** A listed session with the start of its first prompt (absent when it has none). */
export type SessionWithPreview = SessionRecord & { preview?: string };

/** Adds `preview` (the first user prompt, one line, at most 60 characters) to each session. */
export function withPreviews(db: SessionDB, sessions: readonly SessionRecord[]): SessionWithPreview[] {
  const first = db.firstPrompts(sessions.map((s) => s.id));
  return sessions.map((s) => {
    const p = first.get(s.id);
    return p ? { ...s, preview: previewText(p) } : s;
  });
}

/** For the table: an untitled session's title column shows its preview in quotes. */
export function titleOrPreview(s: SessionWithPreview): SessionRecord {
  return s.title || !s.preview ? s : { ...s, title: `“${s.preview}”` };
}

/** Wraps each case-insensitive whole-word occurrence of the query's words in `[` `]`, as FTS snippets do. */
function mark(text: string, query: string): string {
  const words = query
    .split(/\s+/)
    .map((w) => w.replace(/^["'(]+|["')]+$/g, ''))
    .filter((w) => w.length > 0 && !/^(AND|OR|NOT)$/.test(w));
  if (words.length === 0) return text;
  const alts = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alts})(?![\\p{L}\\p{N}_])`, 'giu'); // whole words, as FTS
  return text.replace(re, (m) => `[${m}]`);
}

/**
 * Search hits whose snippet came from a tool call's JSON get `tool: name(args…)` (with the
 * query's words marked) instead; other hits are returned unchanged.
 */
export function readableHits(db: SessionDB, hits: readonly SearchHit[], query: string): SearchHit[] {
  return hits.map((h) => {
    const m = db.getMessage(h.message_id);
    if (!m?.tool_calls) return h;
    const plain = h.snippet.replace(/[[\]]/g, '').replace(/^…|…$/g, '');
    if (m.content && plain.split('…').every((part) => m.content!.includes(part))) return h;
    const calls = summarizeToolCalls(m.tool_calls, 200);
    return calls.length ? { ...h, snippet: `tool: ${mark(calls.join('; '), query)}` } : h;
  });
}
