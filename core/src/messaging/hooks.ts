/**
 * Messaging hooks: user code run at points of the message pipeline.
 *
 * A hook is a folder `<home>/hooks/<name>/` holding `HOOK.yaml` and `handler.js` (an ES module
 * exporting a default function, or `handle`, called as `handler(event, payload)`):
 *
 * ```yaml
 * name: notify-me            # optional, defaults to the folder name
 * events: [agent:end, command:*]
 * enabled: true              # optional
 * ```
 *
 * Events: `gateway:startup`, `session:start`, `agent:start`, `agent:step`, `agent:end`,
 * `command:<name>`; a pattern ending in `*` matches by prefix (`command:*`, `agent:*`, `*`).
 * A hook that throws, rejects, or takes longer than `HOOK_TIMEOUT_MS` is logged and skipped; it
 * never breaks the pipeline.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';

/** Events the messaging layer emits. */
export type HookEvent =
  'gateway:startup' | 'session:start' | 'agent:start' | 'agent:step' | 'agent:end' | `command:${string}`;

/** Longest a hook may run before it is abandoned, ms. */
export const HOOK_TIMEOUT_MS = 5_000;

/** What a hook receives besides the event name (plain data; never secrets). */
export type HookPayload = Record<string, unknown>;

/** A hook function. */
export type HookHandler = (event: HookEvent, payload: HookPayload) => unknown;

/** One loaded hook. */
export interface LoadedHook {
  name: string;
  dir: string;
  events: string[];
  handler: HookHandler;
}

function matches(pattern: string, event: string): boolean {
  return pattern.endsWith('*') ? event.startsWith(pattern.slice(0, -1)) : pattern === event;
}

/** The hooks of one home. */
export class HookRegistry {
  private hooks: LoadedHook[] = [];

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /** Loaded hooks (after `discover`). */
  list(): readonly LoadedHook[] {
    return this.hooks;
  }

  /** Adds a hook in code (tests, built-ins). */
  add(hook: LoadedHook): void {
    this.hooks.push(hook);
  }

  /**
   * Loads every `<hooksDir>/<name>/{HOOK.yaml,handler.js}`. A folder with a broken manifest or
   * module is logged and skipped.
   * @returns the number of hooks loaded.
   */
  async discover(hooksDir: string): Promise<number> {
    if (!existsSync(hooksDir)) return 0;
    let n = 0;
    for (const ent of readdirSync(hooksDir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (!ent.isDirectory() || ent.name.startsWith('.')) continue;
      const dir = join(hooksDir, ent.name);
      const manifest = join(dir, 'HOOK.yaml');
      const module = ['handler.js', 'handler.mjs'].map((f) => join(dir, f)).find((f) => existsSync(f));
      if (!existsSync(manifest) || !module) continue;
      try {
        const meta = (parseYaml(readFileSync(manifest, 'utf8')) ?? {}) as {
          name?: unknown;
          events?: unknown;
          enabled?: unknown;
        };
        if (meta.enabled === false) continue;
        const events = Array.isArray(meta.events) ? meta.events.map(String) : [];
        if (events.length === 0) throw new Error('HOOK.yaml lists no events');
        const mod = (await import(pathToFileURL(module).href)) as { default?: unknown; handle?: unknown };
        const handler = typeof mod.default === 'function' ? mod.default : mod.handle;
        if (typeof handler !== 'function')
          throw new Error(`${module} exports no default function or handle()`);
        this.hooks.push({
          name: typeof meta.name === 'string' && meta.name ? meta.name : ent.name,
          dir,
          events,
          handler: handler as HookHandler,
        });
        n++;
      } catch (err) {
        this.log(`hook ${ent.name} not loaded: ${(err as Error).message}`);
      }
    }
    return n;
  }

  /**
   * Runs every hook subscribed to `event`, one after another, each bounded by `HOOK_TIMEOUT_MS`.
   * Never throws; failures are logged with the hook's name.
   */
  async emit(event: HookEvent, payload: HookPayload = {}): Promise<void> {
    for (const hook of this.hooks) {
      if (!hook.events.some((p) => matches(p, event))) continue;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(() => hook.handler(event, { ...payload })),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`timed out after ${HOOK_TIMEOUT_MS} ms`)),
              HOOK_TIMEOUT_MS,
            );
            timer.unref();
          }),
        ]);
      } catch (err) {
        this.log(`hook ${hook.name} failed on ${event}: ${(err as Error)?.message ?? String(err)}`);
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
