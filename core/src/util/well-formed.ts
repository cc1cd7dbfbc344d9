/**
 * Lone UTF-16 surrogates out of data bound for a model API. A string can hold half of a surrogate
 * pair (a client's JSON `"\ud800"`, an MCP tool's result, a web API's text cut mid-emoji);
 * `JSON.stringify` writes it as the escape `\ud800`, which the strict JSON parsers of model APIs
 * refuse (HTTP 400) — and once such a string is in a session's history, every later request of the
 * session fails the same way. Each lone surrogate becomes U+FFFD; pairs are kept.
 */

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** `String.prototype.isWellFormed` (Node 20+; ~6× faster than the expression on long text). */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** The text with every lone surrogate replaced by U+FFFD (pairs kept; the same string when none). */
export function wellFormedText(text: string): string {
  const ok = isWellFormed ? isWellFormed.call(text) : !LONE_SURROGATE.test(text);
  return ok ? text : text.replace(LONE_SURROGATES, '\ufffd');
}

/**
 * `value` with every string in it (object keys included) made well-formed.
 * @returns `value` itself when nothing needed a change (no copy), else a copy of the parts that
 * changed: arrays and plain objects are walked, other objects (Buffers, Dates) are kept as they are.
 */
export function wellFormedDeep<T>(value: T): T {
  return fix(value) as T;
}

function fix(v: unknown): unknown {
  if (typeof v === 'string') return wellFormedText(v);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const f = fix(v[i]);
      if (f !== v[i]) (out ??= v.slice())[i] = f;
    }
    return out ?? v;
  }
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return v;
  let out: Record<string, unknown> | undefined;
  for (const [k, item] of Object.entries(v)) {
    const key = wellFormedText(k);
    const f = fix(item);
    if (f === item && key === k) continue;
    out ??= { ...(v as Record<string, unknown>) };
    if (key !== k) delete out[k];
    out[key] = f;
  }
  return out ?? v;
}
