/**
 * Where the API server keeps the responses it stored: the profile's state.db table in the daemon
 * (`ctx.apiResponses`), or `MemoryResponseStore` (tests, an adapter without the daemon).
 */
import type { ApiResponseRecord } from '@hermes/core/state';

/** What the adapter needs of a response store (the state.db table has this shape). */
export interface ResponseStore {
  put(row: ApiResponseRecord): void;
  get(id: string): ApiResponseRecord | undefined;
  /** The newest response of a named conversation. */
  latest(conversation: string): ApiResponseRecord | undefined;
  delete(id: string): boolean;
  /** Deletes responses created before `before` (epoch ms). */
  prune?(before: number): number;
}

/** Stored responses are kept this long, ms (30 days); older ones are deleted when the server starts. */
export const RESPONSE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Responses kept in memory, newest last; at most `max` (the oldest dropped first). */
export class MemoryResponseStore implements ResponseStore {
  private readonly rows = new Map<string, ApiResponseRecord>();

  constructor(private readonly max = 1000) {}

  put(row: ApiResponseRecord): void {
    this.rows.delete(row.id);
    this.rows.set(row.id, row);
    if (this.rows.size > this.max) this.rows.delete(this.rows.keys().next().value!);
  }

  get(id: string): ApiResponseRecord | undefined {
    return this.rows.get(id);
  }

  latest(conversation: string): ApiResponseRecord | undefined {
    return [...this.rows.values()].reverse().find((r) => r.conversation === conversation);
  }

  delete(id: string): boolean {
    return this.rows.delete(id);
  }
}
