/**
 * The `heartbeat.*` methods (in the connection's profile, or the `profile` param) and
 * `/heartbeat` of `slash.exec`: bare lists the session's heartbeats, `/heartbeat EVERY PROMPT`
 * adds one to the session, `/heartbeat cancel ID` removes one.
 */
import type { HeartbeatInfo, MethodResult } from '@hermes/core/protocol';
import type { HandlerRegistry } from '../rpc/types.js';
import { withSlashRunner } from '../rpc/slash-runner.js';
import type { HeartbeatService } from './heartbeats.js';

/** Registers `heartbeat.add`, `heartbeat.list`, `heartbeat.remove`. */
export function registerHeartbeatHandlers(rpc: HandlerRegistry, service: HeartbeatService): void {
  rpc.register('heartbeat.add', (p, conn) =>
    Promise.resolve({ heartbeat: service.add(p.profile ?? conn.profile, p.session_id, p.every, p.prompt) }),
  );
  rpc.register('heartbeat.list', (p, conn) =>
    Promise.resolve({ heartbeats: service.list(p.profile ?? conn.profile, p.session_id) }),
  );
  rpc.register('heartbeat.remove', (p, conn) =>
    Promise.resolve({ heartbeat: service.remove(p.profile ?? conn.profile, p.id) }),
  );
}

/** One line of a heartbeat (`hb-1a2b3c  every 30m  next 12:30:00Z  3 runs  "prompt"`). */
export function heartbeatLine(h: HeartbeatInfo): string {
  const prompt = h.prompt.length > 60 ? `${h.prompt.slice(0, 59)}…` : h.prompt;
  return `${h.id}  every ${h.every}  next ${h.next_run_at.slice(11, 19)}Z  ${h.runs} run(s)${h.waiting ? '  (waiting for the turn)' : ''}  ${JSON.stringify(prompt)}`;
}

/** `/heartbeat …` in session `sessionId` of `profile`. */
export function runHeartbeatSlash(
  service: HeartbeatService,
  profile: string,
  sessionId: string,
  args: string,
): MethodResult<'slash.exec'> {
  const ok = (output: string): MethodResult<'slash.exec'> => ({ output, handled: true });
  const text = args.trim();
  try {
    if (text === '' || text === 'list') {
      const list = service.list(profile, sessionId);
      return ok(
        list.length
          ? list.map(heartbeatLine).join('\n')
          : 'No heartbeats in this session. /heartbeat 30m PROMPT runs PROMPT here every 30 minutes.',
      );
    }
    const cancel = /^(?:cancel|remove|rm)\s+(\S+)$/i.exec(text);
    if (cancel) return ok(`Cancelled: ${heartbeatLine(service.remove(profile, cancel[1]!))}`);
    const add = /^(\S+)\s+([\s\S]+)$/.exec(text);
    if (!add)
      return ok('Usage: /heartbeat EVERY PROMPT (e.g. /heartbeat 30m check the build), /heartbeat cancel ID');
    return ok(`Added: ${heartbeatLine(service.add(profile, sessionId, add[1]!, add[2]!.trim()))}`);
  } catch (err) {
    return ok(`heartbeat: ${(err as Error).message}`);
  }
}

/** A registry that routes `/heartbeat …` of `slash.exec` to the heartbeats, the rest on. */
export function withHeartbeatSlash(rpc: HandlerRegistry, service: HeartbeatService): HandlerRegistry {
  return withSlashRunner(rpc, 'heartbeat', async (args, p, conn) =>
    runHeartbeatSlash(service, conn.profile, p.session_id, args),
  );
}
