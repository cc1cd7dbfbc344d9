/**
 * The hub: what ties every session of the daemon together for a user who walks away — the
 * status feed (`status.subscribe`, status-feed.ts) and its sources.
 */
import type { CronJob } from '@hermes/core/cron';
import type { AgentEvent } from '@hermes/core/protocol';
import type { HandlerRegistry } from '../rpc/types.js';
import type { StatusFeed } from './status-feed.js';
import { type CronRow } from './status-feed.js';

export { HeartbeatService, HEARTBEAT_CHECK_MS } from './heartbeats.js';
export { registerHeartbeatHandlers, withHeartbeatSlash } from './heartbeat-handlers.js';
export { Handoffs, withHandoffSlash } from './handoff.js';
export { Escalations, ESCALATED_CHOICES, whoAnswered } from './escalation.js';
export { keepStatusLineFile } from './status-line-file.js';
export { StatusFeed, STATUS_COALESCE_MS, originOf, type FeedSession } from './status-feed.js';

/** Registers `status.subscribe` on the feed. */
export function registerStatusHandlers(rpc: HandlerRegistry, feed: StatusFeed): void {
  rpc.register('status.subscribe', (params, conn) =>
    Promise.resolve(feed.subscribe(conn, params?.watch ?? true)),
  );
}

/**
 * The cron side of the feed: a running job is a `working` row from its session's start to its
 * end, with its tokens (and cost, when priced) as the run's usage events report them.
 * @returns the `watchRun` hook of the cron service.
 */
export function cronFeed(
  feed: StatusFeed,
  now: () => number = Date.now,
): (
  profile: string,
  job: CronJob,
  sessionId: string,
  what: { start: true } | { event: AgentEvent } | { end: true },
) => void {
  const rows = new Map<string, CronRow>();
  return (profile, job, sessionId, what) => {
    const k = `${profile}/${sessionId}`;
    if ('end' in what) {
      rows.delete(k);
      feed.cronEnded(profile, sessionId);
      return;
    }
    let row = rows.get(k);
    if (!row) {
      row = {
        profile,
        session_id: sessionId,
        title: `cron: ${job.name}`,
        started_at: now(),
        tokens: 0,
        cost_usd: null,
      };
      rows.set(k, row);
    }
    if ('event' in what && what.event.type === 'session.usage') {
      row.tokens = what.event.payload.usage.total_tokens;
      const cost = what.event.payload.session_cost_usd;
      if (typeof cost === 'number') row.cost_usd = cost;
      const status = what.event.payload.session_cost_status;
      if (status) row.cost_status = status;
    } else if ('event' in what) return; // only usage changes the row
    feed.cronRunning({ ...row });
  };
}
