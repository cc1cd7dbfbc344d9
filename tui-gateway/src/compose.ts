/**
 * Where the layers above the transport plug into `hermes gateway run`: the session layer (live
 * sessions, prompts, approvals, config/model/profile/slash handlers), crash recovery at start,
 * and the cron ticker (`./cron/`: `cron.*` methods, `/cron`, drained with the sessions).
 */
import { startCron, withCronSlash, type CronService } from './cron/index.js';
import { cronDeliveryWithPlatforms } from './cron/platform-delivery.js';
import type { DaemonOptions } from './lifecycle/daemon.js';
import { withPlatformAdapters } from './platforms/adapter-host.js';
import { listProfileNames, ProfileRuntime } from './sessions/profile-runtime.js';
import { registerSecretsHandlers } from './sessions/secrets-handler.js';
import { registerSessionHandlers } from './sessions/session-handlers.js';
import { SessionRegistry, type SessionRegistryOptions } from './sessions/session-registry.js';
import { recoverAfterCrash } from './sessions/crash-recovery.js';
import { detectSandbox, reapToolProcessesAtStart, stopToolProcesses } from '@hermes/core/tools';
import { startProcessService, ToolReapNotices, type ProcessService } from './processes/index.js';
import {
  cronFeed,
  Escalations,
  Handoffs,
  HeartbeatService,
  keepStatusLineFile,
  registerHeartbeatHandlers,
  registerStatusHandlers,
  StatusFeed,
  withHandoffSlash,
  withHeartbeatSlash,
} from './hub/index.js';
import type { AdapterHost } from './platforms/adapter-host.js';

/** The prompt a session interrupted by a restart gets with `gateway.auto_continue: true`. */
export const AUTO_CONTINUE_PROMPT =
  '[The previous turn was interrupted because the Hermes daemon restarted. Continue the task where it stopped.]';

/**
 * With `gateway.auto_continue: true` in a profile's config, sessions that a crash or an
 * interrupted drain left unfinished are continued by the daemon itself, and the
 * prompts that were queued behind the interrupted turn (held, prompt-queue.ts) run after it.
 * Without it, held prompts wait for the user (`/queue run` / `/queue drop`). A chat platform's
 * session with messages still open in its delivery ledger is left to that platform, which
 * recovers each message once it reconnects (core/src/messaging/pipeline-recovery.ts).
 */
function autoContinue(
  registry: SessionRegistry,
  recovered: Record<string, string[]>,
  log: (line: string) => void,
): void {
  for (const [profile, ids] of Object.entries(recovered)) {
    let enabled = false;
    try {
      enabled = registry.profile(profile).config.gateway.auto_continue;
    } catch (err) {
      log(`profile ${profile}: cannot read config for auto_continue: ${(err as Error).message}`);
    }
    if (!enabled) continue;
    for (const id of ids) {
      try {
        const db = registry.profile(profile).db;
        if (db.getSession(id)?.source === 'cron') {
          log(`profile ${profile}: not continuing cron session ${id} (cron runs at most once)`);
          continue;
        }
        if (db.platforms.hasOpenDeliveries(id)) {
          log(`profile ${profile}: session ${id} is recovered by its chat platform`);
          continue;
        }
        const live = registry.get(profile, id);
        live.submit(AUTO_CONTINUE_PROMPT, 'auto_continue');
        // the prompts queued behind the interrupted turn run after its continuation
        const held = live.runHeld();
        log(`profile ${profile}: continuing session ${id}${held ? ` (then ${held} held prompt(s))` : ''}`);
      } catch (err) {
        log(`profile ${profile}: cannot continue session ${id}: ${(err as Error).message}`);
      }
    }
  }
}

/** The hooks a full daemon runs with (`registerHandlers`, `drain`, `stats`, `profiles`). */
export type DaemonHooks = Pick<
  DaemonOptions,
  'registerHandlers' | 'drain' | 'stats' | 'profiles' | 'activeProfile' | 'unavailableProfiles'
>;

/**
 * Builds the hooks for a daemon serving `root`. Loaded lazily by `hermes gateway run`.
 * @param overrides registry options for tests (e.g. a model client factory).
 */
export async function defaultDaemonHooks(
  root: string,
  overrides: Partial<Omit<SessionRegistryOptions, 'root' | 'epoch'>> & {
    cronIntervalMs?: number;
    heartbeatCheckMs?: number;
  } = {},
): Promise<DaemonHooks> {
  let registry: SessionRegistry | undefined;
  let cron: CronService | undefined;
  let processes: ProcessService | undefined;
  let feed: StatusFeed | undefined;
  let stopStatusLine: (() => void) | undefined;
  let escalations: Escalations | undefined;
  let heartbeats: HeartbeatService | undefined;
  let adapterHost: AdapterHost | undefined;
  let logLine: ((line: string) => void) | undefined;
  const reapNotices = new ToolReapNotices();

  const { cronIntervalMs, heartbeatCheckMs, ...registryOverrides } = overrides;
  return withPlatformAdapters(
    root,
    () => registry,
    {
      registerHandlers: (rpc, ctx) => {
        logLine = (line) => ctx.log.info(line);
        // tool process groups a crashed daemon left running: stopped (SIGTERM, SIGKILL after 2 s)
        void reapToolProcessesAtStart(root, (line) => ctx.log.info(line))
          .then((report) => reapNotices.add(report))
          .catch((err: unknown) =>
            ctx.log.info(`reaping left-over tool processes failed: ${(err as Error).message}`),
          );
        // whether the sandbox runs here, probed once after start-up (it also serves the first turn)
        setTimeout(() => {
          const s = detectSandbox();
          ctx.log.info(
            s.available
              ? `sandbox: ${s.version ?? 'bubblewrap'} at ${s.path}`
              : `sandbox unavailable: ${s.reason} — lanes that terminal.sandbox does not name run unsandboxed (hermes sandbox check)`,
          );
        }, 0).unref();
        const recovery = recoverAfterCrash(root, (line) => ctx.log.info(line));
        // background processes: survivors of an earlier daemon adopted, `process.*` methods
        processes = startProcessService(rpc, ctx, () =>
          registry
            ? {
                submit: (profile, id, text, by) => {
                  if (registry!.isDraining) throw new Error('the daemon is shutting down');
                  registry!.get(profile, id).submit(text, by);
                },
                keepOnStop: (profile) => registry!.profile(profile).config.terminal.background.keep_on_stop,
              }
            : undefined,
        );
        feed = new StatusFeed({ log: (l) => ctx.log.info(l) });
        const statusFeed = feed;
        stopStatusLine = keepStatusLineFile(root, feed, (l) => ctx.log.info(l));
        const escalate = new Escalations({
          profile: (name) => registry!.profile(name),
          escalated: (live, requestId, platform) => statusFeed.escalated(live, requestId, platform),
          log: (l) => ctx.log.info(l),
        });
        escalations = escalate;
        const handoffs = new Handoffs({
          route: (profile, platform) => adapterHost?.chatRoute(profile, platform),
          registry: () => registry,
          profile: (name) => registry!.profile(name),
          log: (l) => ctx.log.info(l),
        });
        registry = new SessionRegistry({
          root,
          epoch: ctx.epoch,
          log: (l) => ctx.log.info(l),
          processes: processes.manager,
          broadcast: (e) => ctx.broadcast(e), // config.changed
          onSessionChange: (s, ev) => {
            statusFeed.touch(s, ev);
            escalate.observe(s, ev);
            handoffs.observe(s, ev);
          },
          onSessionRequest: (s, open) => escalate.shown(s, open),
          onSessionGone: (s) => statusFeed.gone(s),
          startNotices: (profile, id) => reapNotices.of(profile, id),
          ...registryOverrides,
        });
        const factory = registryOverrides.modelClientFactory;
        cron = startCron(rpc, ctx, {
          root,
          profiles: () => listProfileNames(root),
          ...(factory
            ? { modelClientFactory: (home, model) => factory(new ProfileRuntime(root, home.profile), model) }
            : {}),
          ...(cronIntervalMs ? { intervalMs: cronIntervalMs } : {}),
          delivery: (home) => cronDeliveryWithPlatforms(home, (l) => ctx.log.info(l)),
          watchRun: cronFeed(statusFeed),
        });
        registerStatusHandlers(rpc, statusFeed);
        heartbeats = new HeartbeatService({
          root,
          registry: () => registry,
          profiles: () => listProfileNames(root),
          log: (l) => ctx.log.info(l),
          ...(heartbeatCheckMs ? { checkMs: heartbeatCheckMs } : {}),
        });
        registerHeartbeatHandlers(rpc, heartbeats);
        registerSessionHandlers(
          withHandoffSlash(withHeartbeatSlash(withCronSlash(rpc, cron), heartbeats), handoffs),
          registry,
        );
        registerSecretsHandlers(rpc, registry);
        // remembered by the registry: initialize and profile.list report them, requests get -32008
        for (const name of recovery.unavailable) registry.profile(name).unavailable();
        autoContinue(registry, recovery.interrupted, (l) => ctx.log.info(l));
        heartbeats.start(); // after the recovery: a continued turn makes a due heartbeat wait
      },
      drain: async ({ timeoutMs }) => {
        const [sessions, jobs] = await Promise.all([
          registry ? registry.drain(timeoutMs) : true,
          cron ? cron.drain(timeoutMs) : true,
        ]);
        // after the turns: clients hear `process.changed` (stopping) while their sockets are open
        await processes?.stop();
        // tool commands the interrupts did not end (a turn stuck past the drain, a platform's run)
        await stopToolProcesses((line) => logLine?.(line));
        feed?.close();
        stopStatusLine?.();
        heartbeats?.stop();
        escalations?.close();
        return { clean: sessions && jobs };
      },
      stats: () => {
        const s = registry?.stats() ?? { sessions_live: 0, clients: 0, busy: 0 };
        return { sessions_live: s.sessions_live, clients_attached: s.clients };
      },
      profiles: () => listProfileNames(root),
      unavailableProfiles: () => registry?.unavailableProfiles() ?? [],
    },
    // a press on an escalated approval goes to that approval, not to the chat's own questions
    () => (profile, platform, press, mayApprove) => escalations?.button(profile, platform, press, mayApprove),
    (host) => (adapterHost = host),
  );
}
