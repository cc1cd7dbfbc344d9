/**
 * What firing a job does: the one place every trigger
 * (built-in ticker, `hermes cron tick`, `hermes cron run`, an external scheduler) runs a claimed
 * job and delivers the result. Triggers decide *when*; they never build agents or deliver.
 *
 * One run:
 * 1. Assemble the prompt: a cron header (unattended, where the reply goes, the silence marker),
 *    the bodies of the job's skills, then the job's prompt. Scan the whole again (skills may have
 *    changed since the job was created); a finding blocks the run before any model call.
 * 2. Run a fresh agent session (source `cron`, title `cron: <name>`, no history) in the job's
 *    cwd (else `<home>/workspace`), with the job's model, under `cron.timeout` seconds. Tools:
 *    the built-in set without those marked `inCron: false` — `cronjob` (a job may not schedule
 *    jobs) and `clarify` (nobody can answer); `terminal` refuses commands that stop or restart the daemon. Dangerous commands
 *    follow `approvals.cron_mode`: `deny` (default) denies them unasked, with the allowlist
 *    emptied for the run so it never widens this; `allow` lets them run.
 *    `execute_code` scripts follow the same mode (under `deny` every script is refused).
 *    Any tool call refused this way (its result carries `blocked`), or a daemon stop/restart,
 *    makes the run `blocked`, not `ok`: the status, `last_error`, the output file and the
 *    delivered text name the refused commands and scripts and how to allow them (user-trial
 *    finding 4).
 * 3. Save `<home>/cron/output/<job id>/<UTC time>.md` (prompt, status, reply or error).
 * 4. Deliver: a reply that is exactly `[SILENT]` or `NO_REPLY` delivers nothing; another reply is
 *    delivered wrapped with the job's name and a note that the agent cannot see replies (unless
 *    `cron.wrap_response` is false); a failure (model error, empty reply, timeout, blocked prompt)
 *    delivers a short notice. Delivery failures are recorded, never thrown.
 * 5. Record under the store lock: run marker cleared, last run/status/error, `repeat.completed`
 *    +1; a one-shot, and a job that reached its repeat count, becomes `completed` (disabled, no next
 *    run; kept so its last status and error stay visible — `hermes cron edit` revives it, `remove`
 *    deletes it).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../protocol/events.js';
import { openAgentSession } from '../agent/session-runtime.js';
import { daemonStopTargets } from '../approvals/rules/self-daemon.js';
import { loadConfig } from '../config/config-file.js';
import type { HermesConfig } from '../config/schema.js';
import type { HermesHome } from '../home/home.js';
import { isAutonomousSilence, SILENCE_MARKERS } from '../messaging/silence.js';
import type { ModelClient } from '../model/types.js';
import { listSkills, parseSkillFile } from '../skills/skills-index.js';
import { acquireSessionLock } from '../state/session-lock.js';
import { allowedInCron } from '../tools/catalog.js';
import { builtinTools } from '../tools/registry.js';
import type { ToolContext, ToolDefinition } from '../tools/types.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { blockedNote, type BlockedCommand } from './blocked.js';
import { createCronDelivery, parseDeliveryTarget, type CronDelivery } from './delivery.js';
import { jobOutputDir } from './jobs.js';
import { isGatewayLifecycleCommand, scanCronPrompt } from './scan.js';
import { CronStore } from './store.js';
import { iso, type CronJob, type RunStatus } from './types.js';

/** What a run needs. */
export interface RunDeps {
  home: HermesHome;
  /** The profile's config (default: loaded from the home). */
  config?: HermesConfig;
  now?: () => number;
  delivery?: CronDelivery;
  /** Replaces the model client (tests, the daemon's test hooks): one client, or one per job. */
  modelClient?: ModelClient | ((job: CronJob) => ModelClient);
  /** Aborts the run (daemon shutdown). */
  signal?: AbortSignal;
  log?: (line: string) => void;
  store?: CronStore;
  /**
   * Watches a run's agent session (the daemon's status feed): `start` once it opened, `event` for
   * each agent event, `end` when the run finished. Must not throw.
   */
  watchRun?: (
    job: CronJob,
    sessionId: string,
    what: { start: true } | { event: AgentEvent } | { end: true },
  ) => void;
}

/** How one run ended. */
export interface RunOutcome {
  jobId: string;
  name: string;
  status: RunStatus;
  /** The reply (empty on failure). */
  text: string;
  error?: string;
  /** True when the prompt scan blocked the run (no model call was made). */
  blocked: boolean;
  outputFile: string;
  /** Targets delivered to. */
  delivered: string[];
  /** `target: message` per failed delivery. */
  deliveryErrors: string[];
  /** The run finished the job: a one-shot, or the last of its repeat count (it is now `completed`). */
  completed: boolean;
  sessionId?: string;
  /** Commands the run's tools were refused (status `blocked`). */
  blockedCommands: BlockedCommand[];
}

/**
 * True when a cron reply means "nothing to report": the autonomous silence rule
 * (messaging/silence.ts) — a marker alone, on the first or last line (`[SILENT]\n\nNothing new.`),
 * or opening the reply (`[SILENT] No changes detected`).
 */
export function isSilentReply(text: string): boolean {
  return isAutonomousSilence(text);
}

/** The header the agent reads before the job's prompt. */
export function cronHeader(job: Pick<CronJob, 'name' | 'id' | 'deliver'>): string {
  return [
    `[Scheduled task "${job.name}" (cron job ${job.id}). You are running unattended: no user is present to`,
    `answer questions or approve commands. Your final reply is delivered automatically to: ${job.deliver.join(', ')}.`,
    `Do not try to send it yourself. If there is nothing worth reporting, reply with exactly ${SILENCE_MARKERS[0]}`,
    `and nothing will be delivered.]`,
  ].join(' ');
}

/**
 * The full text the agent receives: header, skill bodies, prompt.
 * @throws Error naming a skill that is no longer installed.
 */
export function assemblePrompt(home: HermesHome, job: CronJob): string {
  const parts = [cronHeader(job)];
  if (job.skills.length > 0) {
    const installed = new Map(listSkills(home.skillsDir).map((s) => [s.name, s.path]));
    for (const name of job.skills) {
      const path = installed.get(name);
      if (!path) throw new Error(`skill "${name}" of this job is not installed in ${home.skillsDir}`);
      const { body } = parseSkillFile(readFileSync(path, 'utf8'));
      parts.push(`[Skill "${name}" is loaded for this task:]\n${body.trim()}`);
    }
  }
  parts.push(job.prompt);
  return parts.join('\n\n');
}

/** Wraps a reply for delivery (`cron.wrap_response`). */
export function wrapResponse(job: Pick<CronJob, 'name'>, text: string): string {
  return `Cron job "${job.name}":\n\n${text.trim()}\n\n(Sent by a scheduled job; the agent cannot see replies to this message.)`;
}

/** The short notice delivered when a run fails. */
export function failureNotice(job: Pick<CronJob, 'name' | 'id'>, error: string, outputFile: string): string {
  const first = (error.split('\n')[0] ?? error).slice(0, 300);
  return `Cron job "${job.name}" (${job.id}) failed: ${first}\nDetails: ${outputFile}`;
}

/**
 * The tools of a cron run (see the module doc). Every tool reports the calls it refused: a
 * result with `blocked` (the approval guard denied a terminal command or an `execute_code`
 * script, which nobody can approve here) and the terminal's daemon stop/restart.
 * @param onBlocked told of each refused call (the run becomes `blocked`).
 */
export function cronTools(
  base: ToolDefinition[] = builtinTools(),
  onBlocked?: (b: BlockedCommand) => void,
): ToolDefinition[] {
  return base
    .filter(allowedInCron)
    .map((t) => reportBlocked(t.name === 'terminal' ? guardLifecycle(t) : t, onBlocked));
}

/**
 * True when a shell command would stop, kill or restart the daemon: the approval rule
 * `hermes-daemon-kill` (approvals/rules/self-daemon.ts, which asks in every other lane) over the
 * parsed line; the text pattern only for a line the shell analyser cannot parse completely.
 */
async function stopsDaemon(command: string, ctx: Partial<ToolContext> | undefined): Promise<boolean> {
  const targets = await daemonStopTargets(command, {
    ...(ctx?.home ? { hermesRoot: ctx.home.root, profileHome: ctx.home.dir } : {}),
    ...(ctx?.cwd ? { cwd: ctx.cwd } : {}),
  });
  return targets === undefined ? isGatewayLifecycleCommand(command) : targets !== null;
}

/**
 * The terminal refusing commands that stop or restart the daemon running the job, outright: in
 * any approval mode (`approvals.cron_mode: allow` included) a job may not end its own scheduler.
 */
function guardLifecycle(tool: ToolDefinition): ToolDefinition {
  return {
    ...tool,
    async handler(args, ctx) {
      const command = typeof args.command === 'string' ? args.command : '';
      if (await stopsDaemon(command, ctx as Partial<ToolContext> | undefined)) {
        return {
          ok: false,
          content:
            'BLOCKED: a scheduled job may not stop or restart the Hermes daemon that runs it. Do not try another way; report this in your reply.',
          summary: 'blocked: daemon lifecycle',
          blocked: { reason: 'lifecycle' },
        };
      }
      return tool.handler(args, ctx);
    },
  };
}

/** `tool` telling `onBlocked` of each call whose result is `blocked`. */
function reportBlocked(tool: ToolDefinition, onBlocked?: (b: BlockedCommand) => void): ToolDefinition {
  if (!onBlocked) return tool;
  return {
    ...tool,
    async handler(args, ctx) {
      const result = await tool.handler(args, ctx);
      if (result.blocked) onBlocked(blockedCall(tool, args, result.blocked.reason));
      return result;
    },
  };
}

/** How a refused call is named in the run's note: the command, or the script's language and head. */
function blockedCall(tool: ToolDefinition, args: Record<string, unknown>, reason: string): BlockedCommand {
  const why = reason === 'lifecycle' || reason === 'floor' || reason === 'sandbox' ? reason : 'approval';
  if (tool.name === 'terminal') return { command: typeof args.command === 'string' ? args.command : '', why };
  if (tool.name === 'execute_code') {
    const language = typeof args.language === 'string' ? args.language : 'javascript';
    const head = (typeof args.code === 'string' ? args.code : '').split('\n').find((l) => l.trim()) ?? '';
    return { command: `${language}: ${head.trim()}`, why, kind: 'script' };
  }
  let shown = tool.name;
  try {
    shown = tool.summarize ? `${tool.name}: ${tool.summarize(args)}` : tool.name;
  } catch {
    /* the name alone */
  }
  return { command: shown, why, kind: 'call' };
}

/** A free output file name for a run started at `startedMs`. */
function outputFileFor(home: HermesHome, jobId: string, startedMs: number): string {
  const dir = jobOutputDir(home, jobId);
  mkdirSync(dir, { recursive: true });
  // 2026-11-29T10-00-00-000Z.md: sorts by time; a same-millisecond twin gets _1, _2 (sorting after)
  const stamp = iso(startedMs).replace(/[:.]/g, '-');
  let file = join(dir, `${stamp}.md`);
  for (let i = 1; existsSync(file); i++) file = join(dir, `${stamp}_${i}.md`);
  return file;
}

function renderOutput(
  job: CronJob,
  startedMs: number,
  r: { status: string; text: string; error?: string; sessionId?: string; blocked?: string },
): string {
  const lines = [
    `# Cron job: ${job.name}`,
    '',
    `- Job ID: ${job.id}`,
    `- Run at: ${iso(startedMs)}`,
    `- Schedule: ${job.schedule_display}`,
    `- Status: ${r.status}`,
    ...(r.sessionId ? [`- Session: ${r.sessionId}`] : []),
    '',
    '## Prompt',
    '',
    job.prompt,
    '',
  ];
  if (r.error) lines.push('## Error', '', r.error, '');
  if (r.blocked) lines.push('## Blocked commands', '', r.blocked, '');
  if (r.text) lines.push('## Response', '', r.text, '');
  return lines.join('\n');
}

interface AgentRun {
  ok: boolean;
  text: string;
  error?: string;
  sessionId?: string;
  blocked: boolean;
  /** Commands refused during the run. */
  blockedCommands: BlockedCommand[];
}

async function runAgent(deps: RunDeps, config: HermesConfig, job: CronJob): Promise<AgentRun> {
  let prompt: string;
  try {
    prompt = assemblePrompt(deps.home, job);
  } catch (err) {
    return { ok: false, text: '', error: (err as Error).message, blocked: false, blockedCommands: [] };
  }
  const scan = scanCronPrompt(prompt, 'assembled prompt (skills + prompt)');
  if (!scan.ok) return { ok: false, text: '', error: scan.message, blocked: true, blockedCommands: [] };
  const blockedCommands: BlockedCommand[] = [];

  const runConfig: HermesConfig = {
    ...config,
    command_allowlist: [],
    approvals: { ...config.approvals, mode: config.approvals.cron_mode === 'allow' ? 'off' : 'manual' },
  };
  const timeout = AbortSignal.timeout(config.cron.timeout * 1000);
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
  const watch = deps.watchRun;
  const opened = openAgentSession({
    ...(watch ? { onEvent: (e: AgentEvent) => watch(job, opened.session.id, { event: e }) } : {}),
    home: deps.home,
    source: 'cron',
    select: { kind: 'new', title: `cron: ${job.name}` },
    cwd: job.cwd ?? deps.home.path('workspace'),
    config: runConfig,
    tools: cronTools(undefined, (b) => blockedCommands.push(b)),
    ...(job.model ? { model: job.model } : {}),
    ...(deps.modelClient
      ? { modelClient: typeof deps.modelClient === 'function' ? deps.modelClient(job) : deps.modelClient }
      : {}),
  });
  const lock = acquireSessionLock(deps.home, opened.session.id, `hermes cron (pid ${process.pid})`);
  watch?.(job, opened.session.id, { start: true });
  try {
    const turn = await runTurn(opened.agent, prompt, signal, timeout, config);
    return { ...turn, sessionId: opened.session.id, blocked: false, blockedCommands };
  } finally {
    watch?.(job, opened.session.id, { end: true });
    lock.release();
    opened.close();
  }
}

/** One turn's result as a cron run sees it. */
async function runTurn(
  agent: Pick<Agent, 'runTurn'>,
  prompt: string,
  signal: AbortSignal,
  timeout: AbortSignal,
  config: HermesConfig,
): Promise<{ ok: boolean; text: string; error?: string }> {
  const turn = await agent.runTurn(prompt, signal);
  if (turn.status === 'complete') {
    if (turn.text.trim() === '') return { ok: false, text: '', error: 'the agent gave an empty reply' };
    return { ok: true, text: turn.text };
  }
  if (turn.status === 'interrupted') {
    const why = timeout.aborted
      ? `timed out after ${config.cron.timeout} s (cron.timeout)`
      : 'interrupted (daemon shutting down)';
    return { ok: false, text: '', error: why };
  }
  if (turn.status === 'error') return { ok: false, text: '', error: turn.error ?? 'the model call failed' };
  return { ok: false, text: '', error: `stopped without a final answer (${turn.status})` };
}

/**
 * Runs a claimed job (its `running` marker set and saved), delivers and records the result.
 * Never throws for the job's own failures (model errors, blocked prompts, delivery problems):
 * they end up in the outcome and in the job. Throws only when the store cannot be written.
 */
export async function runClaimedJob(deps: RunDeps, job: CronJob): Promise<RunOutcome> {
  const now = deps.now ?? Date.now;
  const config = deps.config ?? loadConfig(deps.home);
  const store = deps.store ?? new CronStore(deps.home, now);
  const delivery = deps.delivery ?? createCronDelivery(deps.home, undefined, now);
  const startedMs = now();
  deps.log?.(`cron: running job ${job.id} (${job.name})`);

  let run: AgentRun;
  try {
    run = await runAgent(deps, config, job);
  } catch (err) {
    run = {
      ok: false,
      text: '',
      error: `could not start the run: ${(err as Error).message}`,
      blocked: false,
      blockedCommands: [],
    };
  }
  // a reply after blocked commands is `blocked` (also a silent one: the user must learn of it)
  const note = run.blockedCommands.length ? blockedNote(run.blockedCommands) : undefined;
  const status: RunStatus = !run.ok ? 'error' : note ? 'blocked' : isSilentReply(run.text) ? 'silent' : 'ok';
  const outputFile = outputFileFor(deps.home, job.id, startedMs);
  writeFileAtomic(
    outputFile,
    renderOutput(job, startedMs, {
      status: run.blocked ? 'blocked' : status,
      text: run.text,
      ...(run.error ? { error: run.error } : {}),
      ...(run.sessionId ? { sessionId: run.sessionId } : {}),
      ...(note ? { blocked: note } : {}),
    }),
    0o600,
  );

  const delivered: string[] = [];
  const deliveryErrors: string[] = [];
  if (status !== 'silent') {
    const reply = isSilentReply(run.text) ? '' : run.text;
    const text = !run.ok
      ? failureNotice(job, run.error ?? 'failed', outputFile)
      : note && !reply
        ? `Cron job "${job.name}" (${job.id}): ${note}\nDetails: ${outputFile}`
        : (config.cron.wrap_response ? wrapResponse(job, reply) : reply.trim()) +
          (note ? `\n\n⚠ ${note}` : '');
    for (const t of job.deliver) {
      try {
        await delivery.deliver(parseDeliveryTarget(t), { job, text, failure: !run.ok, outputFile });
        delivered.push(t);
      } catch (err) {
        deliveryErrors.push(`${t}: ${(err as Error).message}`);
      }
    }
  }

  const completed = await store.mutate((jobs, tx) => {
    const stored = jobs.find((j) => j.id === job.id);
    if (!stored) {
      tx.unchanged();
      return false;
    }
    stored.running = null;
    stored.last_run_at = iso(startedMs);
    stored.last_status = status;
    stored.last_error = run.ok ? (note ?? null) : (run.error ?? 'failed');
    stored.last_delivery_error = deliveryErrors.length ? deliveryErrors.join('; ') : null;
    stored.repeat = { ...stored.repeat, completed: stored.repeat.completed + 1 };
    const finished =
      stored.schedule.kind === 'once' ||
      (stored.repeat.times !== null && stored.repeat.completed >= stored.repeat.times);
    if (finished) {
      stored.enabled = false;
      stored.state = 'completed';
      stored.next_run_at = null;
    }
    return finished;
  });
  deps.log?.(
    `cron: job ${job.id} ${status}${run.error ? `: ${run.error}` : ''}${note ? `: ${note}` : ''}; output ${outputFile}` +
      `${delivered.length ? `; delivered to ${delivered.join(', ')}` : ''}${deliveryErrors.length ? `; delivery failed: ${deliveryErrors.join('; ')}` : ''}`,
  );
  return {
    jobId: job.id,
    name: job.name,
    status,
    text: run.text,
    ...(run.error ? { error: run.error } : {}),
    blocked: run.blocked,
    outputFile,
    delivered,
    deliveryErrors,
    completed,
    ...(run.sessionId ? { sessionId: run.sessionId } : {}),
    blockedCommands: run.blockedCommands,
  };
}
