/**
 * Several API keys for one provider, rotated when one is rate-limited.
 *
 * Where the keys come from (`collectKeys`). The original (`agent/credential_pool.py`) seeds one
 * pool entry per provider variable from `.env`/the environment and keeps further keys in its
 * `auth.json`, added with `hermes auth add`. This port has no auth store yet, so extra keys are
 * plain variables, looked up like every secret (the home's `.env` first, then the process env):
 *   1. `NAME` (e.g. `OPENROUTER_API_KEY`),
 *   2. then `NAME_2`, `NAME_3`, … in numeric order (gaps allowed, `NAME_1` also accepted),
 *   3. each value may itself hold several keys separated by commas (blanks ignored),
 *   4. duplicates are dropped, first occurrence wins.
 * Labels (`NAME`, `NAME_2`, `NAME[2]` for the 2nd comma item) name keys in logs and errors; the
 * key values are never logged.
 *
 * Selection is "fill first" (the original's default strategy): always the first key, in the order
 * above, that is not cooling down. A key that hit a rate limit (429/402) cools down for 1 hour
 * (the original's `EXHAUSTED_TTL_429_SECONDS`); one that was refused (401/403) for 5 minutes
 * (`EXHAUSTED_TTL_401_SECONDS`). When every key is cooling, the one that recovers first is used
 * anyway, so a single-key setup keeps working and the retry/backoff policy decides what happens.
 * The clock is injectable for tests. State lives in memory, per pool object.
 */
import { lookupSecret, type Secrets } from '../config/secrets.js';

/** One key of a pool. `label` is safe to show; `value` is the secret. */
export interface PooledKey {
  readonly label: string;
  readonly value: string;
}

/** Why a key is benched: a rate limit/quota (long cooldown) or a refusal (short cooldown). */
export type ExhaustReason = 'rate_limit' | 'auth';

/** 1 hour, for rate-limited keys (original: `EXHAUSTED_TTL_429_SECONDS`). */
export const RATE_LIMIT_COOLDOWN_MS = 60 * 60 * 1000;
/** 5 minutes, for refused keys (original: `EXHAUSTED_TTL_401_SECONDS`). */
export const AUTH_COOLDOWN_MS = 5 * 60 * 1000;

/**
 * The keys for variable `name` under the rule in this file's header.
 * @param secrets the home's secrets map (never another profile's).
 * @param env the process environment (default `process.env`).
 */
export function collectKeys(
  name: string,
  secrets: Secrets,
  env: NodeJS.ProcessEnv = process.env,
): PooledKey[] {
  const re = new RegExp(`^${name.replace(/[^A-Za-z0-9_]/g, '')}_(\\d+)$`);
  const numbered = new Set<string>();
  for (const k of [...Object.keys(secrets), ...Object.keys(env)]) if (re.test(k)) numbered.add(k);
  const vars = [name, ...[...numbered].sort((a, b) => Number(re.exec(a)![1]) - Number(re.exec(b)![1]))];
  const seen = new Set<string>();
  const out: PooledKey[] = [];
  for (const v of vars) {
    const raw = lookupSecret(secrets, v, env);
    if (raw === undefined) continue;
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    items.forEach((value, i) => {
      if (seen.has(value)) return;
      seen.add(value);
      out.push({ label: items.length > 1 ? `${v}[${i + 1}]` : v, value });
    });
  }
  return out;
}

/** Options of a pool. */
export interface CredentialPoolOptions {
  /** Clock in milliseconds (default `Date.now`). */
  now?: () => number;
  /** Cooldown after a rate limit, ms (default 1 hour). */
  rateLimitCooldownMs?: number;
  /** Cooldown after a refusal, ms (default 5 minutes). */
  authCooldownMs?: number;
}

/** The rotating keys of one provider endpoint. */
export class CredentialPool {
  readonly keys: readonly PooledKey[];
  private readonly coolUntil = new Map<string, number>();
  private readonly now: () => number;
  private readonly cooldown: Record<ExhaustReason, number>;

  /** @param provider name used in messages. @param keys in preference order (see `collectKeys`). */
  constructor(
    readonly provider: string,
    keys: readonly PooledKey[],
    opts: CredentialPoolOptions = {},
  ) {
    this.keys = [...keys];
    this.now = opts.now ?? Date.now;
    this.cooldown = {
      rate_limit: opts.rateLimitCooldownMs ?? RATE_LIMIT_COOLDOWN_MS,
      auth: opts.authCooldownMs ?? AUTH_COOLDOWN_MS,
    };
  }

  /** Number of keys (cooling or not). */
  get size(): number {
    return this.keys.length;
  }

  /** Epoch ms until which `key` cools down, or undefined when it is usable. */
  coolingUntil(key: PooledKey): number | undefined {
    const until = this.coolUntil.get(key.value);
    if (until === undefined) return undefined;
    if (until <= this.now()) {
      this.coolUntil.delete(key.value);
      return undefined;
    }
    return until;
  }

  /** Keys not cooling down, in preference order. */
  available(): PooledKey[] {
    return this.keys.filter((k) => this.coolingUntil(k) === undefined);
  }

  /**
   * The key to use now: the first one not cooling down; when all are cooling, the one that
   * recovers first; undefined only for an empty pool.
   */
  current(): PooledKey | undefined {
    const free = this.available()[0];
    if (free) return free;
    let best: PooledKey | undefined;
    let bestUntil = Infinity;
    for (const k of this.keys) {
      const until = this.coolUntil.get(k.value) ?? 0;
      if (until < bestUntil) {
        best = k;
        bestUntil = until;
      }
    }
    return best;
  }

  /**
   * Benches `key` (1 hour for `rate_limit`, 5 minutes for `auth`).
   * @returns the next key not cooling down, or undefined when none is left (no rotation possible).
   */
  markExhausted(key: PooledKey, reason: ExhaustReason): PooledKey | undefined {
    if (!this.keys.some((k) => k.value === key.value)) return this.available()[0];
    this.coolUntil.set(key.value, this.now() + this.cooldown[reason]);
    return this.available()[0];
  }

  /** Labels and cooldowns, safe to log or show (no key values). */
  describe(): Array<{ label: string; coolingUntil?: number }> {
    return this.keys.map((k) => {
      const until = this.coolingUntil(k);
      return until === undefined ? { label: k.label } : { label: k.label, coolingUntil: until };
    });
  }
}
