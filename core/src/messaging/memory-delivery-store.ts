/**
 * The delivery ledger's store kept in memory: for platforms whose replies are not kept across
 * restarts, and tests. The daemon's store is state.db (`platform_deliveries`).
 */
import type { DeliveryPatch, DeliveryRecord, DeliveryState, NewDelivery } from '../state/platform-tables.js';
import type { DeliveryStore } from './delivery-ledger.js';

/** A delivery store in memory (platforms without durable replies, tests). */
export class MemoryDeliveryStore implements DeliveryStore {
  private readonly rows = new Map<string, DeliveryRecord>();

  insertDelivery(row: NewDelivery, now = Date.now()): 'ok' | 'duplicate' {
    if (this.rows.has(row.id)) return 'duplicate';
    if (
      row.external_id &&
      [...this.rows.values()].some((r) => r.platform === row.platform && r.external_id === row.external_id)
    )
      return 'duplicate';
    this.rows.set(row.id, {
      send_opts: null,
      external_id: null,
      session_key: null,
      inbound: null,
      session_id: null,
      prompt_id: null,
      prompt_text: null,
      after_message_id: null,
      state: 'accepted',
      reply: null,
      chunks_sent: 0,
      attempts: 0,
      next_attempt_at: null,
      last_error: null,
      outcome: null,
      ...row,
      created_at: row.created_at ?? now,
      updated_at: now,
    });
    return 'ok';
  }

  updateDelivery(id: string, patch: DeliveryPatch, now = Date.now()): boolean {
    const row = this.rows.get(id);
    if (!row) return false;
    Object.assign(row, patch, { updated_at: now });
    return true;
  }

  getDelivery(id: string): DeliveryRecord | undefined {
    const row = this.rows.get(id);
    return row ? { ...row } : undefined;
  }

  listDeliveries(platform: string, states: readonly DeliveryState[]): DeliveryRecord[] {
    return [...this.rows.values()]
      .filter((r) => r.platform === platform && states.includes(r.state))
      .map((r) => ({ ...r }));
  }

  pruneDeliveries(before: number): number {
    let n = 0;
    for (const [id, r] of this.rows)
      if (['sent', 'failed', 'closed'].includes(r.state) && r.updated_at < before) {
        this.rows.delete(id);
        n++;
      }
    return n;
  }
}
