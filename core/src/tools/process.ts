/**
 * The `process` tool: the model's handle on the background processes it started with
 * `terminal(background: true)` (the original's `process` tool): list, poll output with offsets,
 * wait with a timeout, write to stdin, kill. Only processes of the session's profile are seen.
 * Works where the daemon gives the session `ctx.processes`; elsewhere it says so.
 *
 * What `write` sends is judged by the approval guard first, as the text the process reads: the
 * line `{ COMMAND\n} <<'DELIM'\nDATA\nDELIM` — so text written into a shell, an interpreter or a
 * database client (`bash`, `python3`, `sqlite3` started in the background) is asked, and refused
 * by the floor, exactly as the same text run through `terminal` would be. The unterminated last
 * line of earlier writes is judged with it (a command split over two writes is seen whole).
 */
import { randomBytes } from 'node:crypto';
import { processList, stateText, UnknownProcessError } from '../processes/index.js';
import type { BackgroundProcessEntry, LogChunk } from '../processes/index.js';
import { blockedResult, toolError } from './args.js';
import { defineTool, type ToolArgs, type Zod } from './define.js';
import type { ToolContext, ToolDefinition, ToolResult } from './types.js';

/** Bytes of output `poll` returns without an offset (the tail). */
export const POLL_TAIL_BYTES = 4_000;
/** Most bytes one `poll` returns. */
export const POLL_MAX_BYTES = 32_000;
/** Default and largest `wait`, seconds. */
export const WAIT_DEFAULT_SEC = 30;
export const WAIT_MAX_SEC = 600;

const parameters = (z: Zod) =>
  z.object({
    action: z
      .enum(['list', 'poll', 'wait', 'write', 'kill'])
      .describe(
        'list: your background processes; poll: new output since `offset` (or the tail); wait: block until it ends or `timeout`; write: send `data` to its stdin; kill: stop it and its children.',
      ),
    id: z
      .string()
      .describe('The process id from terminal (bg-…); needed by every action but list.')
      .optional(),
    offset: z
      .int()
      .min(0)
      .describe(
        'poll: byte offset to read from (use next_offset of the previous poll); absent: the last 4,000 bytes.',
      )
      .optional(),
    timeout: z
      .int()
      .min(0)
      .meta({ maximum: WAIT_MAX_SEC })
      .describe(`wait: seconds to wait at most (default ${WAIT_DEFAULT_SEC}, max ${WAIT_MAX_SEC}).`)
      .optional(),
    data: z.string().describe('write: text for its stdin (end with "\\n" to send a line).').optional(),
  });

function header(e: BackgroundProcessEntry): string {
  return `${e.id} (pid ${e.pid}): ${stateText(e)}`;
}

function output(c: LogChunk, from: string): string {
  const skipped = c.skipped > 0 ? `[${c.skipped} older bytes were trimmed from the log]\n` : '';
  const more = c.next_offset < c.total ? ` (${c.total - c.next_offset} more bytes: poll again)` : '';
  const text = c.text === '' ? '(no new output)' : c.text.replace(/\s+$/, '');
  return `${skipped}--- output ${from} ---\n${text}\n--- next_offset: ${c.next_offset}${more} ---`;
}

async function run(args: ToolArgs<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const procs = ctx.processes;
  if (!procs)
    return toolError(
      'process',
      'background processes are available only in sessions run by the Hermes daemon',
    );
  if (args.action === 'list') {
    const all = procs.list();
    return {
      ok: true,
      content: processList(all),
      summary: `${all.filter((e) => e.state === 'running').length} running`,
    };
  }
  const id = args.id?.trim();
  if (!id) return toolError('process', `action "${args.action}" needs "id"`);
  try {
    switch (args.action) {
      case 'poll': {
        const c =
          args.offset === undefined
            ? procs.read(id, -POLL_TAIL_BYTES, POLL_TAIL_BYTES)
            : procs.read(id, args.offset, POLL_MAX_BYTES);
        const e = procs.get(id);
        const from = args.offset === undefined ? '(last bytes)' : `from offset ${args.offset}`;
        return { ok: true, content: `${header(e)}\n${output(c, from)}`, summary: stateText(e) };
      }
      case 'wait': {
        const sec = Math.min(args.timeout ?? WAIT_DEFAULT_SEC, WAIT_MAX_SEC);
        const { entry, ended } = await procs.wait(id, sec * 1000, ctx.signal);
        const c = procs.read(id, -POLL_TAIL_BYTES, POLL_TAIL_BYTES);
        const note = ended
          ? ''
          : ctx.signal.aborted
            ? '\n[wait interrupted; the process keeps running]'
            : `\n[still running after ${sec} s; wait again, poll, or kill it]`;
        return {
          ok: true,
          content: `${header(entry)}${note}\n${output(c, '(last bytes)')}`,
          summary: ended ? stateText(entry) : 'still running',
        };
      }
      case 'write': {
        if (args.data === undefined) return toolError('process', 'action "write" needs "data"');
        const e = procs.get(id);
        const key = `${e.profile}/${e.id}`;
        const text = (partialLines.get(key) ?? '') + args.data;
        const verdict = await ctx.checkCommand(stdinLine(e.command, text), e.cwd);
        if (!verdict.allowed) return blockedResult(verdict);
        await procs.write(id, args.data);
        rememberPartial(key, text);
        return {
          ok: true,
          content: `wrote ${Buffer.byteLength(args.data)} bytes to the stdin of ${id}`,
          summary: 'written',
        };
      }
      case 'kill': {
        const e = await procs.kill(id);
        return { ok: true, content: header(e), summary: stateText(e) };
      }
    }
  } catch (err) {
    if (err instanceof UnknownProcessError) return toolError('process', err.message);
    return toolError('process', (err as Error).message);
  }
}

/** The unterminated last line written to each process (`profile/id`), judged with the next write. */
const partialLines = new Map<string, string>();
/** Most characters of an unterminated line kept, and most processes remembered. */
const PARTIAL_MAX_CHARS = 4_000;
const PARTIAL_MAX_PROCESSES = 200;

function rememberPartial(key: string, text: string): void {
  const nl = text.lastIndexOf('\n');
  const rest = (nl < 0 ? text : text.slice(nl + 1)).slice(-PARTIAL_MAX_CHARS);
  partialLines.delete(key);
  if (rest) partialLines.set(key, rest);
  while (partialLines.size > PARTIAL_MAX_PROCESSES) partialLines.delete(partialLines.keys().next().value!);
}

/**
 * The command line the guard judges for text written to a background process: its command with
 * the text as a here-document (a delimiter the text does not hold), so rules that read what a
 * shell, an interpreter or a client is fed apply.
 */
export function stdinLine(command: string, data: string): string {
  let delim: string;
  do delim = `HERMES_STDIN_${randomBytes(4).toString('hex')}`;
  while (data.includes(delim));
  return `{ ${command}\n} <<'${delim}'\n${data.endsWith('\n') ? data : `${data}\n`}${delim}`;
}

/** The `process` tool definition. */
export const processTool: ToolDefinition = defineTool({
  name: 'process',
  description:
    'Manage background processes started with terminal(background: true): "list" them, "poll" their output ' +
    '(pass the returned next_offset as offset next time to get only new output), "wait" for one to end (with a ' +
    'timeout), "write" to its stdin, "kill" it (its whole process group). They keep running after your turn ' +
    'ends and while the user is away, until they exit or are killed.',
  parameters,
  readOnly: false,
  // only the daemon's sessions have background processes: never sub-agents or cron runs
  forSubagents: false,
  inCron: false,
  verb: ['Checked process', 'Checking process'],
  summarize: (args) => `${String(args.action ?? '')} ${String(args.id ?? '')}`.trim(),
  run,
});
