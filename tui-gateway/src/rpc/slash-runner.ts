/**
 * Routing of daemon-run slash commands: the slash-command table names, for some commands, the
 * daemon service that runs them (`daemon.runner`: `cron`, `heartbeat`, `handoff` …). A service
 * wraps the registry so `slash.exec` of its commands reaches it and every other command goes on to
 * the handler registered after it.
 */
import { findSlashCommand } from '@hermes/core/constants';
import type { MethodResult } from '@hermes/core/protocol';
import type { Connection, Handler, HandlerParams, HandlerRegistry } from './types.js';

/**
 * A registry whose `slash.exec` sends the commands of `runner` (matched by name, any case) to
 * `run` with the text after the command ('' when none), the rest to the
 * registered handler; every other method is registered unchanged.
 */
export function withSlashRunner(
  rpc: HandlerRegistry,
  runner: string,
  run: (
    args: string,
    params: HandlerParams<'slash.exec'>,
    conn: Connection,
  ) => Promise<MethodResult<'slash.exec'>>,
): HandlerRegistry {
  return {
    register(method, handler) {
      if (method !== 'slash.exec') return rpc.register(method, handler);
      const inner = handler as unknown as Handler<'slash.exec'>;
      const wrapped: Handler<'slash.exec'> = async (p, conn) => {
        const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(p.command.trim());
        const mine = m !== null && findSlashCommand('daemon', m[1]!)?.daemon?.runner === runner;
        return mine ? run(m[2] ?? '', p, conn) : inner(p, conn);
      };
      rpc.register<'slash.exec'>('slash.exec', wrapped);
    },
  };
}
