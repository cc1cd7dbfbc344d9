/**
 * Where a job's result goes.
 *
 * Targets, as written in `--deliver` / the tool's `deliver` (several: comma-separated):
 * - `local` — appended to `<home>/cron/delivered.md`, one section per delivery, newest last (a
 *   local inbox the TUI and `hermes cron output` read). The run's full output is saved in
 *   `<home>/cron/output/<job id>/<timestamp>.md` regardless of targets.
 * - `file:<absolute path>` — appended to that file (created 0600 if missing).
 * - `origin` — the chat the job was created from. A job created in a TUI or CLI session (no
 *   platform) delivers locally; a messaging origin goes through the platform sender.
 * - `<platform>` or `<platform>:<chat id>[:<thread id>]` — through the platform sender.
 *
 * Platform delivery belongs to the messaging layer, which implements `PlatformSender` and
 * passes it to `createCronDelivery`. Without one, platform targets fail with
 * `DeliveryUnavailableError` ("not available yet"), recorded in the job's `last_delivery_error`.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { DeliveryTarget as GatewayDeliveryTarget } from '../messaging/delivery-target.js';
import type { HermesHome } from '../home/home.js';
import { sensitiveWriteReason } from '../tools/sensitive-paths.js';
import { isInside, resolveRealPath } from '../util/paths.js';
import type { CronJob, JobOrigin } from './types.js';

/** A parsed delivery target. */
export type DeliveryTarget =
  | { kind: 'local' }
  | { kind: 'origin' }
  | { kind: 'file'; path: string }
  | { kind: 'platform'; platform: string; chatId?: string; threadId?: string };

/** A target string that cannot be used. */
export class DeliveryTargetError extends Error {
  constructor(target: string, why: string) {
    super(
      `invalid delivery target "${target}": ${why}. Use local, origin, file:/absolute/path, <platform> or <platform>:<chat id>`,
    );
    this.name = 'DeliveryTargetError';
  }
}

/** The target exists but cannot be delivered to here (no sender for its platform yet). */
export class DeliveryUnavailableError extends Error {
  constructor(what: string) {
    super(`delivery to ${what} is not available yet (no messaging-layer sender for it)`);
    this.name = 'DeliveryUnavailableError';
  }
}

/**
 * Parses one target string: `file:<absolute path>` here, every other form through the messaging
 * layer's `DeliveryTarget.parse` (one grammar for both; platform names lower-cased, chat and
 * thread ids keep their case).
 * @throws DeliveryTargetError naming what is wrong.
 */
export function parseDeliveryTarget(text: string): DeliveryTarget {
  const t = text.trim();
  if (t.startsWith('file:')) {
    const path = t.slice(5);
    if (!isAbsolute(path)) throw new DeliveryTargetError(t, 'a file target needs an absolute path');
    return { kind: 'file', path };
  }
  let parsed: GatewayDeliveryTarget;
  try {
    parsed = GatewayDeliveryTarget.parse(t);
  } catch (err) {
    throw new DeliveryTargetError(t, (err as Error).message);
  }
  if (parsed.kind !== 'platform') return { kind: parsed.kind };
  return {
    kind: 'platform',
    platform: parsed.platform!,
    ...(parsed.chatId ? { chatId: parsed.chatId } : {}),
    ...(parsed.threadId ? { threadId: parsed.threadId } : {}),
  };
}

/** What is delivered: the text plus what the sender may want to know. */
export interface CronMessage {
  job: Pick<CronJob, 'id' | 'name' | 'origin'>;
  /** The final text (already wrapped or a failure notice). */
  text: string;
  /** True for a failure notice. */
  failure: boolean;
  /** The saved output file of this run. */
  outputFile?: string;
}

/** Sends to chat platforms; implemented by the messaging layer. */
export interface PlatformSender {
  /** True when this platform can be sent to now (adapter configured). */
  supports(platform: string): boolean;
  /**
   * Sends `text` to a chat; without `chatId` to the platform's home channel.
   * @throws on failure (the message is recorded as the job's delivery error).
   */
  send(target: { platform: string; chatId?: string; threadId?: string }, msg: CronMessage): Promise<void>;
}

/** Delivers one job result to one target. */
export interface CronDelivery {
  /**
   * @throws DeliveryUnavailableError when the target cannot be served here; any Error on failure.
   */
  deliver(target: DeliveryTarget, msg: CronMessage): Promise<void>;
}

/** The local inbox file of a home. */
export function localInboxFile(home: HermesHome): string {
  return join(home.cronDir, 'delivered.md');
}

function appendSection(file: string, msg: CronMessage, now: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const head = `<!-- cron ${msg.job.id} ${new Date(now).toISOString()}${msg.failure ? ' failure' : ''} -->`;
  appendFileSync(file, `${head}\n${msg.text.trimEnd()}\n\n`, { mode: 0o600 });
}

/** An origin that is not a chat platform (TUI, CLI, no origin at all) delivers locally. */
export function originTarget(origin: JobOrigin | null): DeliveryTarget {
  if (!origin?.platform || ['tui', 'cli', 'cron', 'local'].includes(origin.platform))
    return { kind: 'local' };
  return {
    kind: 'platform',
    platform: origin.platform,
    ...(origin.chat_id ? { chatId: origin.chat_id } : {}),
    ...(origin.thread_id ? { threadId: origin.thread_id } : {}),
  };
}

/**
 * The default delivery: `local` and files here, platforms through `platforms` when given.
 * @param now clock for section headers (tests).
 */
export function createCronDelivery(
  home: HermesHome,
  platforms?: PlatformSender,
  now: () => number = Date.now,
): CronDelivery {
  const deliver = async (target: DeliveryTarget, msg: CronMessage): Promise<void> => {
    switch (target.kind) {
      case 'local':
        appendSection(localInboxFile(home), msg, now());
        return;
      case 'file': {
        // never into Hermes's own files (config.yaml, .env, jobs.json …) nor system or credential
        // paths (~/.ssh, shell rc files, /etc …, the file tools' deny-list): a job's output is
        // text from the model and must not become settings, keys or code. Symlinks resolved first.
        const real = resolveRealPath(target.path);
        if (isInside(resolveRealPath(home.root), real)) {
          throw new Error(
            `file target ${target.path} is inside the Hermes home ${home.root}; deliver elsewhere or use local`,
          );
        }
        const sensitive = sensitiveWriteReason(real);
        if (sensitive) throw new Error(`file target ${target.path}: ${sensitive}`);
        appendSection(real, msg, now());
        return;
      }
      case 'origin':
        return deliver(originTarget(msg.job.origin), msg);
      case 'platform': {
        const what = `${target.platform}${target.chatId ? `:${target.chatId}` : ''}`;
        if (!platforms?.supports(target.platform)) throw new DeliveryUnavailableError(what);
        await platforms.send(target, msg);
        return;
      }
    }
  };
  return { deliver };
}
