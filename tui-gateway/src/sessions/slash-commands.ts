/**
 * Slash commands the daemon answers for any client (`slash.exec`): the ones that need session or
 * profile state. Frontends handle screen-only commands (`/clear`, `/copy` …) themselves. Which
 * names are answered here, and the `/help` text, come from the one slash-command table
 * (`daemon.runner: 'session'` entries); any other name is tried as a saved skill.
 */
import { formatPermissions, pickEntry, removeAllowlistEntry } from '@hermes/core/approvals';
import { contextWindowFor, parseReasoningArg, reasoningEffortText } from '@hermes/core/model';
import type { MethodResult } from '@hermes/core/protocol';
import {
  costLabel,
  daemonHelpText,
  findSlashCommand,
  type DaemonSessionCommandName,
} from '@hermes/core/constants';
import { processList, stateText } from '@hermes/core/processes';
import { loadSkillAsUserMessage } from '@hermes/core/skills';
import { SessionDBError, totalsStatus, type SessionDB, type SessionRecord } from '@hermes/core/state';
import { availableTools } from '@hermes/core/tools';
import type { Connection } from '../rpc/types.js';
import type { SessionRegistry } from './session-registry.js';

/** ` Cost: $0.0123.` of a session's stored model calls (`partial` with tokens from before costs were stored). */
function sessionCostText(db: SessionDB, record: SessionRecord): string {
  const t = db.modelCalls.sessionTotals(record.id);
  const untracked = record.prompt_tokens + record.completion_tokens - t.prompt_tokens - t.completion_tokens;
  // before the first model call there is nothing to price (not "unknown")
  if (t.priced_calls + t.local_calls + t.unknown_calls === 0 && untracked <= 0) return ' Cost: none yet.';
  const status = totalsStatus(t, Math.max(0, untracked));
  return ` Cost: ${costLabel(status === 'unknown' ? undefined : t.cost_micros / 1_000_000, status)}.`;
}

/** The daemon's `/help` answer, from the one slash-command table. */
const HELP = daemonHelpText();

/** `1234` → `1.2k`, for context sizes. */
function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/**
 * `/compact [focus]`: compresses the live session's context (loading it if needed).
 * Output: the compressions count, and the context used before → after (with the window share).
 */
async function compact(
  sessions: SessionRegistry,
  conn: Connection,
  sessionId: string,
  focus: string,
  window: number,
): Promise<MethodResult<'slash.exec'>> {
  const live = sessions.get(conn.profile, sessionId);
  let out;
  try {
    out = await live.compact(focus || undefined);
  } catch (err) {
    return { output: `Could not compact: ${(err as Error).message}`, handled: true };
  }
  if (!out) return { output: 'Nothing to compact: the conversation is already short.', handled: true };
  const share = (n: number): string => ` (${Math.round((100 * n) / window)}% of ${tokens(window)})`;
  return {
    output:
      `Compacted (compression #${out.compressions}): context ${tokens(out.beforeTokens)}${share(out.beforeTokens)} → ` +
      `~${tokens(out.afterTokens)}${share(out.afterTokens)} tokens, ${out.messagesBefore} → ${out.messagesAfter} messages. ` +
      `Continues in session ${out.sessionId} (parent ${out.parentSessionId}).`,
    handled: true,
  };
}

/**
 * `/queue`, `/queue run`, `/queue drop`: the prompts waiting in a session's queue, including the
 * held ones a stopped or crashed daemon left (prompt-queue.ts).
 */
function queueCommand(sessions: SessionRegistry, conn: Connection, sessionId: string, arg: string): string {
  const live = sessions.get(conn.profile, sessionId);
  const line = (q: { text: string; held?: boolean }, i: number): string =>
    `${i + 1}. ${q.held ? '[held] ' : ''}${q.text.length > 120 ? `${q.text.slice(0, 120)}…` : q.text}`;
  switch (arg.toLowerCase()) {
    case '': {
      const queued = live.queued();
      if (queued.length === 0) return 'No prompt is waiting.';
      const held = queued.some((q) => q.held)
        ? '\nHeld prompts did not run before the daemon stopped: /queue run runs them, /queue drop discards the queue.'
        : '';
      return `${queued.length} prompt(s) waiting:\n${queued.map(line).join('\n')}${held}`;
    }
    case 'run': {
      if (sessions.isDraining) return 'The daemon is shutting down; run them after it restarts.';
      const wasBusy = live.busy;
      const n = live.runHeld();
      if (n === 0) return 'No held prompt.';
      return `${wasBusy ? 'After the running turn: running' : 'Running'} ${n} held prompt(s).`;
    }
    case 'drop': {
      const dropped = live.dropQueued();
      return dropped.length === 0 ? 'No prompt is waiting.' : `Dropped ${dropped.length} prompt(s).`;
    }
    default:
      return `Unknown /queue argument "${arg}": use /queue, /queue run or /queue drop.`;
  }
}

/**
 * `/tools`: the tools a turn of this profile offers the model (built-ins that can work here, plus
 * the tools of its ready MCP servers), one line each with the first sentence of its description.
 */
function toolsCommand(profile: ReturnType<SessionRegistry['profile']>): string {
  const tools = availableTools(profile.tools(), { config: profile.config, secrets: profile.secrets });
  if (tools.length === 0) return 'No tools are available.';
  const w = Math.max(...tools.map((t) => t.name.length)) + 2;
  const line = (t: { name: string; description: string }): string => {
    const first = (t.description.split(/(?<=\.)\s|\n/)[0] ?? '').trim();
    return `  ${t.name.padEnd(w)}${first.length > 100 ? `${first.slice(0, 99)}…` : first}`;
  };
  return [`${tools.length} tools:`, ...tools.map(line)].join('\n');
}

/**
 * `/permissions`, `/permissions remove N|TEXT`: this session's approvals and the profile's
 * `command_allowlist`, numbered together (permissions.ts); removing a profile entry rewrites
 * config.yaml, and the session's guard forgets it at once (not only from the next turn).
 */
function permissionsCommand(
  sessions: SessionRegistry,
  conn: Connection,
  sessionId: string,
  profile: ReturnType<SessionRegistry['profile']>,
  arg: string,
): string {
  const approvals = sessions.approvals(conn.profile, sessionId);
  const session = approvals?.list() ?? [];
  profile.refresh(); // the file as it is now (an edit or `hermes config allowlist` meanwhile)
  const allowlist = profile.config.command_allowlist;
  const verb = arg.split(/\s+/)[0]!.toLowerCase();
  if (verb === '' || verb === 'list') return formatPermissions(session, allowlist, conn.profile);
  if (verb !== 'remove')
    return `Unknown /permissions argument "${verb}": use /permissions or /permissions remove N|TEXT.`;
  const what = arg.slice(verb.length).trim();
  if (what === '') return 'Which one? /permissions remove N (see /permissions) or its text.';
  const picked = pickEntry(session, allowlist, what);
  if ('error' in picked) return `${picked.error} /permissions lists them.`;
  if (picked.list === 'profile') {
    removeAllowlistEntry(profile.home, picked.text);
    profile.refresh();
  }
  approvals?.revoke(picked.text);
  const from = picked.list === 'profile' ? `profile ${conn.profile}'s command_allowlist` : 'this session';
  return `Removed from ${from}: ${picked.text}`;
}

/** `/ps`, `/ps kill ID`: the profile's background processes (core/src/processes/). */
async function psCommand(sessions: SessionRegistry, profile: string, arg: string): Promise<string> {
  const m = sessions.processManager;
  if (!m) return 'Background processes are not available here.';
  const [verb = '', id = ''] = arg.split(/\s+/);
  if (verb === '') {
    const all = m.list(profile);
    const running = all.filter((e) => e.state === 'running').length;
    return `${running} running background process(es) in profile ${profile}:\n${processList(all)}`;
  }
  if (verb.toLowerCase() !== 'kill' || id === '')
    return `Unknown /ps argument "${arg}": use /ps or /ps kill ID.`;
  try {
    const e = await m.kill(profile, id);
    return `${e.id}: ${stateText(e)}`;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * `/reasoning [none|low|medium|high|default]`: the session's reasoning effort; with a level, the
 * session's own from its next turn (`default`: back to `model.reasoning_effort`).
 */
export function reasoningCommand(
  sessions: SessionRegistry,
  conn: Connection,
  sessionId: string,
  arg: string,
): string {
  const set = parseReasoningArg(arg);
  if (set !== null && typeof set === 'object') return set.error;
  const { effort, own } = sessions.reasoningEffort(conn.profile, sessionId, set);
  return reasoningEffortText(effort, own, set !== undefined);
}

/** True for `renameSession`'s refusals of the title itself: taken (`EEXIST`) or too long (`EINVAL`). */
function isTitleRefusal(err: unknown): err is SessionDBError {
  return err instanceof SessionDBError && (err.code === 'EEXIST' || err.code === 'EINVAL');
}

/** The session-layer command called `name` (case-insensitive), or undefined for any other name. */
function sessionCommand(name: string): DaemonSessionCommandName | undefined {
  const c = findSlashCommand('daemon', name);
  return c?.daemon?.runner === 'session' ? (c.name as DaemonSessionCommandName) : undefined;
}

/** Runs one slash command for a session. Unknown commands answer `handled: false`. */
export function runSlashCommand(
  sessions: SessionRegistry,
  conn: Connection,
  requestedId: string,
  command: string,
): MethodResult<'slash.exec'> | Promise<MethodResult<'slash.exec'>> {
  const text = command.trim().replace(/^\//, '');
  const name = text.split(/\s+/)[0] ?? '';
  const arg = text.slice(name.length).trim();
  const profile = sessions.profile(conn.profile);
  const sessionId = sessions.currentId(conn.profile, requestedId); // after compression: the child
  const record = profile.db.getSession(sessionId);
  if (!record) return { output: `No session ${sessionId} in profile ${conn.profile}.`, handled: true };
  const cmd = sessionCommand(name);
  switch (cmd) {
    case 'help':
      return { output: HELP, handled: true };
    case 'compact':
      return compact(
        sessions,
        conn,
        sessionId,
        arg,
        contextWindowFor(record.model || profile.config.model.default, profile.config),
      );
    case 'title': {
      if (!arg) return { output: `Title: ${record.title ?? '(none)'}`, handled: true };
      try {
        profile.db.renameSession(sessionId, arg);
      } catch (err) {
        // the title itself was refused (another session has it, or it is too long); storage
        // failures (ECORRUPT, a full disk …) go to the method's normal error mapping
        if (!isTitleRefusal(err)) throw err;
        return { output: `Title not changed: ${err.message}.`, handled: true };
      }
      const live = sessions.peek(conn.profile, sessionId);
      if (live) live.emit('session.info', { session: live.info() });
      return { output: `Title set to "${arg}".`, handled: true };
    }
    case 'queue':
      return { output: queueCommand(sessions, conn, sessionId, arg), handled: true };
    case 'permissions':
      return { output: permissionsCommand(sessions, conn, sessionId, profile, arg), handled: true };
    case 'tools':
      return { output: toolsCommand(profile), handled: true };
    case 'reasoning':
      return { output: reasoningCommand(sessions, conn, sessionId, arg), handled: true };
    case 'ps':
      return psCommand(sessions, conn.profile, arg).then((output) => ({ output, handled: true }));
    case 'usage': {
      const total = record.prompt_tokens + record.completion_tokens;
      return {
        output: `Tokens: ${record.prompt_tokens} prompt + ${record.completion_tokens} completion = ${total}; ${record.message_count} message${record.message_count === 1 ? '' : 's'}.${sessionCostText(profile.db, record)}`,
        handled: true,
      };
    }
    case 'status': {
      const live = sessions.peek(conn.profile, sessionId);
      return {
        output: `Session ${sessionId} (${record.title ?? 'untitled'}) · profile ${conn.profile} · model ${record.model ?? 'default'} · ${live?.busy ? 'busy' : 'idle'} · ${live?.clients.size ?? 0} client(s)`,
        handled: true,
      };
    }
    case 'rollback':
      return import('./lazy-rollback.js').then(async ({ runRollbackCommand }) => ({
        output: await runRollbackCommand(profile.home, record.cwd ?? process.cwd(), arg, {
          session: sessionId,
          maxSnapshots: profile.config.checkpoints.max_snapshots,
        }),
        handled: true,
      }));
    case 'mcp':
      // the profile's manager first: it loads the MCP module, which the import below then finds
      return profile.mcp().then(async (m) => {
        const { runMcpCommand } = await import('./lazy-mcp.js');
        profile.reload();
        return { output: await runMcpCommand(m, arg, profile.config), handled: true };
      });
    default: {
      // every session-layer command of the table has its case above (else tsc refuses this line)
      const notACommand: undefined = cmd;
      void notACommand;
      const skill = loadSkillAsUserMessage(profile.home, name, arg);
      if (skill === undefined) return { output: `Unknown command /${name}. Try /help.`, handled: false };
      sessions.get(conn.profile, sessionId).submit(skill, `${conn.clientName}:${conn.id}`);
      return { output: `Loaded skill ${name}.`, handled: true };
    }
  }
}
