/**
 * A connection to the daemon of the selected profile's root for a command that only asks it
 * something, without starting it (`hermes ps`, `hermes sessions delete`).
 */
import { existsSync } from 'node:fs';
import type { CliContext } from './context.js';

/**
 * Connects as client `name` in the selected profile when a daemon runs (its discovery file
 * exists and it answers within 5 s). @returns the client, or undefined when none runs or it does
 * not answer — never throws for that.
 */
export async function connectIfRunning(ctx: CliContext, name: string) {
  if (!existsSync(ctx.home.discoveryFile)) return undefined;
  const { connect } = await import('@hermes/client');
  try {
    return await connect(
      { root: ctx.home.root },
      { name, version: ctx.version, profile: ctx.home.profile, connectTimeoutMs: 5_000 },
    );
  } catch {
    return undefined;
  }
}
