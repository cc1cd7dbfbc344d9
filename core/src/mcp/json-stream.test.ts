/**
 * The capped streaming JSON parser (json-stream.ts) and the stdio message reader built on it
 * (stdio-transport.ts): same values as JSON.parse however the text is split, long strings cut
 * with head and tail, memory-bounding budgets, malformed input rejected, and a reader that skips
 * a bad line and keeps reading.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CappedJsonParser, type JsonCapLimits } from './json-stream.js';
import { MessageReader, TRUNCATED_META_KEY } from './stdio-transport.js';

function parse(text: string, limits: Partial<JsonCapLimits> = {}, pieces = [text]): unknown {
  const p = new CappedJsonParser(limits);
  for (const piece of pieces) p.push(piece);
  return p.end();
}

const SAMPLE = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  result: {
    content: [{ type: 'text', text: 'héllo "wörld"\n\t\\ \u0001 😀 /' }],
    n: [0, -1.5, 2e10, 1e-7, true, false, null],
    nested: { a: { b: [[], {}, [{}]] } },
    ['__proto__']: { polluted: true },
  },
});

describe('CappedJsonParser', () => {
  it('gives what JSON.parse gives, split at every position', () => {
    const expected = JSON.parse(SAMPLE) as unknown;
    for (let i = 0; i <= SAMPLE.length; i++) {
      expect(parse(SAMPLE, {}, [SAMPLE.slice(0, i), SAMPLE.slice(i)])).toEqual(expected);
    }
    expect(parse(' 42 ')).toBe(42);
    expect(parse('"\\ud83d\\ude00"', {}, ['"\\ud8', '3d\\ude', '00"'])).toBe('😀');
    const proto = (parse(SAMPLE) as { result: Record<string, unknown> }).result;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toContain('__proto__');
  });

  it('cuts a long string to head and tail, and reports it', () => {
    const long = `HEAD${'m'.repeat(50_000)}TAIL`;
    const p = new CappedJsonParser({ maxStringChars: 1_000 });
    const text = JSON.stringify({ id: 1, s: long, short: 'kept' });
    for (let i = 0; i < text.length; i += 777) p.push(text.slice(i, i + 777));
    const v = p.end() as { s: string; short: string };
    expect(v.s.length).toBeLessThanOrEqual(1_000);
    expect(v.s.startsWith('HEAD')).toBe(true);
    expect(v.s.endsWith('TAIL')).toBe(true);
    expect(v.s).toMatch(/\[\.\.\. [\d,]+ chars omitted \.\.\.\]/);
    expect(v.short).toBe('kept');
    expect(p.report.stringsCut).toBe(1);
    expect(p.report.charsOmitted).toBeGreaterThan(49_000);
  });

  it('bounds the whole message: total chars, values, base64 payloads', () => {
    const many = JSON.stringify({ id: 2, parts: Array.from({ length: 20 }, () => 'y'.repeat(5_000)) });
    const a = parse(many, { maxStringChars: 4_000, maxTotalChars: 10_000, keepWholeChars: 100 }) as {
      parts: string[];
    };
    const kept = a.parts.reduce((n, s) => n + s.length, 0);
    expect(kept).toBeLessThan(10_000 + 20 * 100);
    expect(a.parts[0]!.length).toBeGreaterThan(3_000);
    expect(a.parts[19]!.length).toBeLessThanOrEqual(100);

    const p = new CappedJsonParser({ maxValues: 50 });
    p.push(JSON.stringify({ id: 3, list: Array.from({ length: 1_000 }, (_, i) => ({ i })), after: 'x' }));
    const b = p.end() as { id: number; list: unknown[]; after: string };
    expect(b.list.length).toBeLessThan(50);
    expect(b.after).toBe('x'); // the top level is always kept
    expect(b.id).toBe(3);
    expect(p.report.valuesDropped).toBeGreaterThan(900);

    const img = parse(JSON.stringify({ data: 'QUJD'.repeat(10_000), mimeType: 'image/png' }), {
      maxStringChars: 1_000,
    });
    expect(img).toEqual({ data: '', mimeType: 'image/png' });
  });

  it('rejects malformed and incomplete input', () => {
    for (const bad of ['{"a" 1}', '[1,,2]', '{"a":1,}x', 'nul', '"\\x"', '[1] 2', '{"a":[}'])
      expect(() => parse(bad), bad).toThrow(/malformed JSON/);
    expect(() => parse('{"a": "open')).toThrow(/ended inside a value/);
    expect(() => parse('['.repeat(300))).toThrow(/nested too deeply/);
  });
});

describe('MessageReader', () => {
  it('splits lines, streams a long one capped and marks it, skips a malformed one', () => {
    const got: JSONRPCMessage[] = [];
    const errors: string[] = [];
    const reader = new MessageReader(
      (m) => got.push(m),
      (e) => errors.push(e.message),
      { wholeMessageBytes: 1_000, limits: { maxStringChars: 2_000 } },
    );
    const small = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'é'.repeat(100_000) }] },
    });
    const bytes = Buffer.from(`${small}\n{"jsonrpc": oops}\n${big}\r\n${small}\n`);
    for (let i = 0; i < bytes.length; i += 4_099) reader.push(bytes.subarray(i, i + 4_099));
    expect(errors).toEqual([expect.stringMatching(/^dropped a 17 bytes message from the server: /)]);
    expect(got.map((m) => (m as { id: number }).id)).toEqual([1, 2, 1]);
    const result = (
      got[1] as unknown as { result: { content: Array<{ text: string }>; _meta: Record<string, unknown> } }
    ).result;
    expect(result.content[0]!.text.length).toBeLessThanOrEqual(2_000);
    expect(result._meta[TRUNCATED_META_KEY]).toMatchObject({
      bytes: Buffer.byteLength(big) + 1,
      stringsCut: 1,
    });
  });
});
