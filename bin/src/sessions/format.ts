/**
 * Human-readable output of `hermes sessions` (pure functions: records in, text out). JSON output
 * does not pass through here.
 */
import { inert } from '../terminal-text.js';
import { chipLabel, splitAttachedText } from '@hermes/core/constants';
import type { MessageRecord, SearchHit, SessionExport, SessionRecord } from '@hermes/core/state';
import { attachmentLabel } from '@hermes/core/constants';
import { attachmentInfos } from '@hermes/core/images';

/** Options shared by the formatters. */
export interface FormatOptions {
  /** "Now" in epoch ms (ages are relative to it). */
  now: number;
  /** Terminal width in columns (default 100). */
  width?: number;
  /** Emphasise matches and headings with ANSI bold/dim. */
  color?: boolean;
}

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** Columns `text` takes in a terminal (CJK and full-width characters count 2). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += WIDE.test(ch) ? 2 : 1;
  return w;
}

/** `text` cut to at most `width` columns, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = WIDE.test(ch) ? 2 : 1;
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

function pad(text: string, width: number, right = false): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

/** One line: whitespace runs (newlines included) become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * How long ago `then` was: `just now`, `45s ago`, `12m ago`, `3h ago`, `5d ago`, or the date
 * (`2026-10-01`) beyond 30 days. Times are epoch ms.
 */
export function formatAge(then: number, now: number): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 10) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  if (s < 30 * 86_400) return `${Math.floor(s / 86_400)}d ago`;
  return formatDate(then).slice(0, 10);
}

/** Local `YYYY-MM-DD HH:MM` of an epoch-ms time. */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const bold = (s: string, on?: boolean) => (on ? `\u001b[1m${s}\u001b[22m` : s);
const dim = (s: string, on?: boolean) => (on ? `\u001b[2m${s}\u001b[22m` : s);

/** The `hermes sessions list` table: id, title, source, message count, started, last active. */
export function formatSessionTable(sessions: readonly SessionRecord[], opts: FormatOptions): string {
  if (sessions.length === 0) return 'No sessions yet.\n';
  const rows = sessions.map((s) => ({
    id: s.id,
    title: inert(s.title ?? '—'),
    source: s.source,
    msgs: String(s.message_count),
    started: formatAge(s.started_at, opts.now),
    active: formatAge(s.updated_at ?? s.started_at, opts.now),
  }));
  const head = {
    id: 'ID',
    title: 'TITLE',
    source: 'SOURCE',
    msgs: 'MSGS',
    started: 'STARTED',
    active: 'ACTIVE',
  };
  const colW = (k: keyof typeof head) =>
    Math.max(displayWidth(head[k]), ...rows.map((r) => displayWidth(r[k])));
  const fixed = colW('id') + colW('source') + colW('msgs') + colW('started') + colW('active') + 5 * 2;
  const titleW = Math.max(12, Math.min(colW('title'), (opts.width ?? 100) - fixed));
  const line = (r: typeof head) =>
    [
      pad(r.id, colW('id')),
      pad(truncate(r.title, titleW), titleW),
      pad(r.source, colW('source')),
      pad(r.msgs, colW('msgs'), true),
      pad(r.started, colW('started')),
      r.active,
    ].join('  ');
  return [bold(line(head), opts.color), ...rows.map(line)].join('\n') + '\n';
}

/** `name(arg summary)` for each call of an assistant message's `tool_calls` JSON. */
export function summarizeToolCalls(toolCalls: string | null, width = 80): string[] {
  if (!toolCalls) return [];
  try {
    const calls = JSON.parse(toolCalls) as { function?: { name?: string; arguments?: string } }[];
    return calls.map((c) => {
      const name = c.function?.name ?? '?';
      let args = c.function?.arguments ?? '';
      try {
        const parsed = JSON.parse(args) as Record<string, unknown>;
        args = Object.values(parsed)
          .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
          .join(', ');
      } catch {
        /* keep the raw text */
      }
      return truncate(`${name}(${oneLine(args)})`, width);
    });
  } catch {
    return [truncate(oneLine(toolCalls), width)];
  }
}

/** Longest tool output shown by `show` without `--full`, in lines. */
export const TOOL_OUTPUT_LINES = 20;

function messageBody(m: MessageRecord, full: boolean): string[] {
  let text = inert(m.content ?? '');
  // a user message's attached references: their chips, not their content (--full shows it)
  const attached = !full && m.role === 'user' ? splitAttachedText(text) : undefined;
  if (attached?.chips.length) text = attached.text;
  let lines = text.split('\n');
  if (!full && m.role === 'tool' && lines.length > TOOL_OUTPUT_LINES) {
    const more = lines.length - TOOL_OUTPUT_LINES;
    lines = [
      ...lines.slice(0, TOOL_OUTPUT_LINES),
      `… ${more} more line${more === 1 ? '' : 's'} (--full shows all)`,
    ];
  }
  const chips = attached?.chips.map((c) => `  ${chipLabel(c)}`) ?? [];
  return [...(text ? lines.map((l) => `  ${l}`) : []), ...chips];
}

/** The error a failed reply stored in its outcome (the `error` event's message), if any. */
export function storedError(m: Pick<MessageRecord, 'outcome'>): string | undefined {
  if (!m.outcome) return undefined;
  try {
    const o = JSON.parse(m.outcome) as { error?: unknown };
    return typeof o.error === 'string' && o.error ? o.error : undefined;
  } catch {
    return undefined;
  }
}

/** The `hermes sessions show` view: a header with the session's facts, then the transcript. */
export function formatSessionDetail(
  exp: SessionExport,
  opts: FormatOptions & {
    full?: boolean;
    /** The session's cost fact and each assistant message's usage line (session-cost.ts). */
    costs?: { fact: string; lines: ReadonlyMap<number, string> };
  },
): string {
  const s = exp.session;
  const out: string[] = [];
  out.push(bold(`${inert(s.title ?? '(untitled)')}  ${dim(s.id, opts.color)}`, opts.color));
  const facts = [
    `source ${s.source}`,
    s.model ? `model ${s.model}` : null,
    `state ${s.state}`,
    `started ${formatDate(s.started_at)} (${formatAge(s.started_at, opts.now)})`,
    `${s.message_count} message${s.message_count === 1 ? '' : 's'}`,
    `tokens ${s.prompt_tokens} in / ${s.completion_tokens} out`,
    opts.costs?.fact ?? null,
  ].filter(Boolean);
  out.push(`  ${facts.join(' · ')}`);
  if (s.cwd) out.push(`  cwd ${s.cwd}`);
  if (s.parent_session_id) out.push(`  continues ${s.parent_session_id}`);
  if (s.ended_at) out.push(`  ended ${formatDate(s.ended_at)}${s.end_reason ? ` (${s.end_reason})` : ''}`);
  for (const m of exp.messages) {
    if (m.role === 'system' && !opts.full) continue;
    const time = formatDate(m.timestamp).slice(11);
    const who = m.role === 'tool' ? `tool ${m.tool_name ?? ''}`.trim() : m.role;
    const status = m.status && m.status !== 'complete' ? ` [${m.status}]` : '';
    out.push('');
    out.push(`${dim(`[${time}]`, opts.color)} ${bold(who, opts.color)}${status}`);
    out.push(...messageBody(m, Boolean(opts.full)));
    const chips = attachmentInfos(m.attachments).map(attachmentLabel);
    if (chips.length) out.push(`  ${chips.join(' ')}`);
    const error = storedError(m);
    if (error) out.push(`  error: ${inert(error)}`);
    for (const call of summarizeToolCalls(m.tool_calls, (opts.width ?? 100) - 4))
      out.push(`  → ${inert(call)}`);
    const usage = opts.costs?.lines.get(m.id);
    if (usage) out.push(dim(`  ${usage}`, opts.color));
  }
  if (!opts.full && exp.messages.some((m) => m.role === 'system')) {
    out.push('', dim('(system prompt hidden; --full shows it)', opts.color));
  }
  return out.join('\n') + '\n';
}

/** `hermes sessions search` results: one heading per hit, then its snippet. */
export function formatSearchHits(hits: readonly SearchHit[], query: string, opts: FormatOptions): string {
  if (hits.length === 0) return `No messages match "${query}".\n`;
  const width = opts.width ?? 100;
  const out: string[] = [];
  for (const h of hits) {
    const title = h.session_title ? truncate(inert(h.session_title), 40) : '(untitled)';
    out.push(
      `${h.session_id}  ${bold(title, opts.color)}  ${dim(`${h.role} · ${formatAge(h.timestamp, opts.now)}`, opts.color)}`,
    );
    const snippet = truncate(oneLine(inert(h.snippet)), width - 4);
    out.push(
      `    ${opts.color ? snippet.replace(/\[([^\]]*)\]/g, (_, m: string) => bold(m, true)) : snippet}`,
    );
  }
  return out.join('\n') + '\n';
}

/** A backtick fence longer than any backtick run inside `text` (at least 3). */
function codeFence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A Markdown transcript for `hermes sessions export` (without `--json`). */
export function formatMarkdown(exp: SessionExport): string {
  const s = exp.session;
  const out = [`# ${s.title ?? s.id}`, ''];
  out.push(`- id: \`${s.id}\``, `- source: ${s.source}`, `- started: ${formatDate(s.started_at)}`);
  if (s.model) out.push(`- model: ${s.model}`);
  if (s.cwd) out.push(`- cwd: \`${s.cwd}\``);
  out.push(
    `- messages: ${s.message_count}`,
    `- tokens: ${s.prompt_tokens} in / ${s.completion_tokens} out`,
    '',
  );
  for (const m of exp.messages) {
    const who = m.role === 'tool' ? `tool \`${m.tool_name ?? ''}\`` : m.role;
    out.push(
      `## ${who} · ${formatDate(m.timestamp)}${m.status && m.status !== 'complete' ? ` (${m.status})` : ''}`,
      '',
    );
    if (m.content) {
      const fence = m.role === 'tool' || m.role === 'system' ? codeFence(m.content) : '';
      out.push(...(fence ? [fence, m.content, fence] : [m.content]), '');
    }
    const error = storedError(m);
    if (error) out.push(`> error: ${error}`, '');
    for (const call of summarizeToolCalls(m.tool_calls, 200)) out.push(`- calls \`${call}\``);
    if (m.tool_calls) out.push('');
  }
  return out.join('\n');
}
