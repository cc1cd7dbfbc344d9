/**
 * Delivering a text to a `DeliveryTarget` — used by cron and anything else
 * that sends without an inbound message to answer.
 *
 * - The silence filter applies first: `NO_REPLY` / `[SILENT]` deliver nothing.
 * - `origin` resolves to the origin's chat (or `local` without one).
 * - `local` writes `<home>/cron/output/<job id | misc>/<YYYYMMDD_HHMMSS>.md` (0600).
 * - `<platform>` uses the home channel (`platforms.<p>.home_channel`, else the secret named by the
 *   registry's `cronDeliverEnvVar`).
 * - A platform is reached through the live adapter of this process when the daemon runs one
 *   (`setLiveAdapter`, done by the daemon's adapter host), else through the registry's
 *   `standaloneSender`, else the delivery fails with a clear error.
 */
import { join } from 'node:path';
import type { HermesConfig } from '../config/schema.js';
import { lookupSecret, type Secrets } from '../config/secrets.js';
import type { HermesHome } from '../home/home.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { PlatformAdapter } from './adapter.js';
import { DeliveryTarget } from './delivery-target.js';
import { platformConfigOf } from './platform-config.js';
import { platformRegistry, type PlatformRegistry } from './registry.js';
import { isIntentionalSilence } from './silence.js';
import type { MessageSource } from './source.js';
import { splitMessage } from './split.js';

const liveAdapters = new Map<string, PlatformAdapter>();
const liveKey = (profile: string, platform: string): string => `${profile}\u0000${platform}`;

/** Records (or with `undefined` removes) the connected adapter of a platform in this process. */
export function setLiveAdapter(
  profile: string,
  platform: string,
  adapter: PlatformAdapter | undefined,
): void {
  if (adapter) liveAdapters.set(liveKey(profile, platform), adapter);
  else liveAdapters.delete(liveKey(profile, platform));
}

/** The connected adapter of a platform in this process, if any. */
export function getLiveAdapter(profile: string, platform: string): PlatformAdapter | undefined {
  return liveAdapters.get(liveKey(profile, platform));
}

/** What to deliver. */
export interface DeliveryRequest {
  target: DeliveryTarget | string;
  text: string;
  /** Where the job or session came from (for `origin`). */
  origin?: MessageSource;
  /** Names the output folder of `local` deliveries. */
  jobId?: string;
  /** Written into the header of `local` files. */
  jobName?: string;
}

/** The profile the delivery happens in. */
export interface DeliveryContext {
  profile: string;
  home: HermesHome;
  config: HermesConfig;
  secrets: Secrets;
  /** Default: the process-wide registry. */
  registry?: PlatformRegistry;
  log?: (line: string) => void;
  /** Clock for file names (tests). */
  now?: () => Date;
}

/** Outcome of one delivery. Never thrown: failures come back with `ok: false`. */
export interface DeliveryResult {
  ok: boolean;
  /** The resolved target's text form. */
  target: string;
  /** `silent`: nothing was sent on purpose. */
  kind: 'local' | 'platform' | 'silent';
  /** File written (`local`). */
  path?: string;
  /** Platform message ids (`platform`). */
  messageIds?: string[];
  /** How the platform was reached. */
  via?: 'live' | 'standalone';
  error?: string;
}

function stamp(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** Delivers `req.text` (see the module doc). */
export async function deliverMessage(req: DeliveryRequest, ctx: DeliveryContext): Promise<DeliveryResult> {
  let target: DeliveryTarget;
  try {
    target = (typeof req.target === 'string' ? DeliveryTarget.parse(req.target) : req.target).resolve(
      req.origin,
    );
  } catch (err) {
    return { ok: false, target: String(req.target), kind: 'platform', error: (err as Error).message };
  }
  const name = target.toString();
  if (isIntentionalSilence(req.text)) return { ok: true, target: name, kind: 'silent' };

  if (target.kind === 'local') {
    const safeJob = (req.jobId ?? 'misc').replace(/[^A-Za-z0-9_.-]/g, '_') || 'misc';
    const file = join(ctx.home.cronOutputDir, safeJob, `${stamp(ctx.now?.() ?? new Date())}.md`);
    const header = req.jobName ? `# ${req.jobName}\n\n` : '';
    try {
      writeFileAtomic(file, `${header}${req.text}\n`, 0o600);
      return { ok: true, target: name, kind: 'local', path: file };
    } catch (err) {
      return { ok: false, target: name, kind: 'local', error: (err as Error).message };
    }
  }

  const platform = target.platform!;
  const registry = ctx.registry ?? platformRegistry;
  const pcfg = platformConfigOf(ctx.config.platforms, platform);
  const entry = registry.isRegistered(platform) ? await registry.get(platform) : undefined;
  let chatId = target.chatId ?? pcfg.home_channel;
  if (!chatId && entry?.cronDeliverEnvVar) chatId = lookupSecret(ctx.secrets, entry.cronDeliverEnvVar);
  if (!chatId)
    return { ok: false, target: name, kind: 'platform', error: `no home channel configured for ${platform}` };
  const threadOpts = target.threadId ? { threadId: target.threadId } : {};

  const live = getLiveAdapter(ctx.profile, platform);
  if (live) {
    const ids: string[] = [];
    for (const chunk of splitMessage(req.text, pcfg.max_message_length ?? live.maxMessageLength)) {
      const r = await live
        .send(chatId, chunk, threadOpts)
        .catch((e: Error) => ({ ok: false, error: e.message }) as const);
      if (!r.ok)
        return { ok: false, target: name, kind: 'platform', via: 'live', error: r.error ?? 'send failed' };
      if ('messageId' in r && r.messageId) ids.push(r.messageId);
    }
    return { ok: true, target: name, kind: 'platform', via: 'live', messageIds: ids };
  }
  if (!entry) return { ok: false, target: name, kind: 'platform', error: `unknown platform "${platform}"` };
  if (!entry.standaloneSender)
    return {
      ok: false,
      target: name,
      kind: 'platform',
      error: `${entry.label} can only deliver while the daemon runs it (hermes gateway start)`,
    };
  const pctx = {
    profile: ctx.profile,
    home: ctx.home,
    hermesConfig: ctx.config,
    config: pcfg,
    secrets: ctx.secrets,
    log: ctx.log ?? (() => undefined),
  };
  const ids: string[] = [];
  for (const chunk of splitMessage(req.text, pcfg.max_message_length ?? entry.maxMessageLength ?? 0)) {
    const r = await entry.standaloneSender(pctx, chatId, chunk, threadOpts).catch((e: Error) => ({
      ok: false,
      error: e.message,
    }));
    if (!r.ok)
      return {
        ok: false,
        target: name,
        kind: 'platform',
        via: 'standalone',
        error: r.error ?? 'send failed',
      };
    if ('messageId' in r && r.messageId) ids.push(r.messageId);
  }
  return { ok: true, target: name, kind: 'platform', via: 'standalone', messageIds: ids };
}
