/**
 * A streaming JSON parser that keeps memory bounded: it reads one JSON value in pieces (as they
 * arrive from a pipe) and builds it with its long strings cut, so a 20 MiB tool result never
 * exists in memory as a whole (no 20 MiB buffer, string or parsed copy).
 *
 * - A string longer than `maxStringChars` keeps its head and tail around the `[... N chars
 *   omitted ...]` marker of util/head-tail.ts. Strings under `keepWholeChars` are always whole
 *   (type tags, ids, MIME types), so the message keeps its shape.
 * - Over all strings at most about `maxTotalChars` are kept: once that is used up, each further
 *   long string keeps `keepWholeChars`.
 * - After `maxValues` values, further array elements and members of objects below the top level
 *   are parsed and dropped (the top level — `jsonrpc`, `id`, `result` … — is always kept).
 * - A cut value under a key of `dropKeys` (base64 payloads: `data`, `blob`) becomes `''`: a cut
 *   one would no longer be valid base64.
 * - What was cut is counted in `report`.
 *
 * The input is text (decode bytes with a `StringDecoder` first). Numbers and literals are checked
 * with `JSON.parse`; strings accept what `JSON.parse` accepts (control characters are let
 * through). Malformed input throws.
 */
import { HeadTailBuffer } from '../util/head-tail.js';

/** Limits of `CappedJsonParser`. Counts are UTF-16 code units (chars) or values. */
export interface JsonCapLimits {
  /** Longest string kept whole, chars; a longer one keeps head and tail around a marker. */
  maxStringChars: number;
  /** Chars kept over all strings, about; later long strings keep `keepWholeChars`. */
  maxTotalChars: number;
  /** Strings this short are never cut, chars. */
  keepWholeChars: number;
  /** Values kept (scalars and containers) before elements and deep members are dropped. */
  maxValues: number;
  /** Deepest nesting accepted. */
  maxDepth: number;
  /** Keys whose values become `''` when they would be cut. */
  dropKeys: ReadonlySet<string>;
}

/** Defaults: 100,000-char strings, 400,000 chars in all, 100,000 values, depth 256. */
export const DEFAULT_JSON_CAP_LIMITS: JsonCapLimits = {
  maxStringChars: 100_000,
  maxTotalChars: 400_000,
  keepWholeChars: 256,
  maxValues: 100_000,
  maxDepth: 256,
  dropKeys: new Set(['data', 'blob']),
};

/** What a parse left out. */
export interface JsonCapReport {
  /** Strings cut (or dropped under `dropKeys`). */
  stringsCut: number;
  /** Chars left out of those strings, about (the markers' own length is not subtracted). */
  charsOmitted: number;
  /** Array elements and object members dropped. */
  valuesDropped: number;
}

const enum Mode {
  Value,
  ValueOrClose,
  AfterValue,
  Key,
  KeyOrClose,
  Colon,
  String,
  Escape,
  Unicode,
  Literal,
}

interface Frame {
  kind: 'object' | 'array';
  /** Undefined: parsed but not kept. */
  value: Record<string, unknown> | unknown[] | undefined;
  key?: string;
  depth: number;
}

interface StringSink {
  isKey: boolean;
  /** Undefined: the string is dropped (only counted). */
  buf: HeadTailBuffer | undefined;
  limit: number;
  pending: string;
  total: number;
  dropKey: boolean;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const SPECIAL = /["\\]/g;
const LITERAL_CHAR = /[0-9A-Za-z+\-.]/;
const MAX_LITERAL_CHARS = 512;
const PENDING_FLUSH_CHARS = 8_192;

function isSpace(c: string): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

/** Parses one JSON value pushed in pieces; see the file comment for what it keeps. */
export class CappedJsonParser {
  /** What was cut so far. */
  readonly report: JsonCapReport = { stringsCut: 0, charsOmitted: 0, valuesDropped: 0 };
  private readonly limits: JsonCapLimits;
  private mode = Mode.Value;
  private stack: Frame[] = [];
  private root: unknown;
  private hasRoot = false;
  private values = 0;
  private keptChars = 0;
  private offset = 0;
  /** Whether the value now being parsed is kept. */
  private keep = true;
  private str: StringSink | undefined;
  private hex = '';
  private literal = '';

  constructor(limits: Partial<JsonCapLimits> = {}) {
    this.limits = { ...DEFAULT_JSON_CAP_LIMITS, ...limits };
  }

  private fail(what: string, at: number): never {
    throw new Error(`malformed JSON at char ${this.offset + at}: ${what}`);
  }

  /** Parses the next piece of text. @throws Error on malformed JSON. */
  push(text: string): void {
    let i = 0;
    const n = text.length;
    while (i < n) {
      switch (this.mode) {
        case Mode.String:
          i = this.stringRun(text, i);
          continue;
        case Mode.Escape: {
          const c = text[i]!;
          if (c === 'u') {
            this.hex = '';
            this.mode = Mode.Unicode;
          } else {
            const e = ESCAPES[c];
            if (e === undefined) this.fail(`bad escape \\${c}`, i);
            this.append(e);
            this.mode = Mode.String;
          }
          i++;
          continue;
        }
        case Mode.Unicode: {
          const take = Math.min(4 - this.hex.length, n - i);
          this.hex += text.slice(i, i + take);
          i += take;
          if (this.hex.length === 4) {
            if (!/^[0-9A-Fa-f]{4}$/.test(this.hex)) this.fail(`bad \\u escape ${this.hex}`, i);
            this.append(String.fromCharCode(parseInt(this.hex, 16)));
            this.mode = Mode.String;
          }
          continue;
        }
        case Mode.Literal: {
          const c = text[i]!;
          if (LITERAL_CHAR.test(c)) {
            this.literal += c;
            if (this.literal.length > MAX_LITERAL_CHARS) this.fail('number too long', i);
            i++;
            continue;
          }
          this.finishLiteral(i);
          continue; // the delimiter is read in the mode the value left
        }
      }
      const c = text[i]!;
      if (isSpace(c)) {
        i++;
        continue;
      }
      this.structural(c, i);
      i++;
    }
    this.offset += n;
    if (this.str) this.flush();
  }

  /** Ends the input. @returns the value. @throws Error when the input is incomplete. */
  end(): unknown {
    if (this.mode === Mode.Literal) this.finishLiteral(0);
    if (!this.hasRoot || this.stack.length > 0 || this.mode !== Mode.AfterValue)
      throw new Error(`malformed JSON: the input ended inside a value (char ${this.offset})`);
    return this.root;
  }

  private structural(c: string, i: number): void {
    const top = this.stack[this.stack.length - 1];
    switch (this.mode) {
      case Mode.ValueOrClose:
        if (c === ']') return this.close('array', i);
      // falls through
      case Mode.Value:
        return this.beginValue(c, i);
      case Mode.KeyOrClose:
        if (c === '}') return this.close('object', i);
      // falls through
      case Mode.Key:
        if (c !== '"') this.fail(`expected a key, got ${JSON.stringify(c)}`, i);
        this.beginString(true);
        return;
      case Mode.Colon:
        if (c !== ':') this.fail(`expected ":", got ${JSON.stringify(c)}`, i);
        this.mode = Mode.Value;
        this.keep = this.keepMember(top!);
        return;
      case Mode.AfterValue:
        if (!top) this.fail(`unexpected ${JSON.stringify(c)} after the value`, i);
        if (c === ',') {
          if (top.kind === 'array') {
            this.mode = Mode.Value;
            this.keep = this.keepElement(top);
          } else this.mode = Mode.Key;
          return;
        }
        if (c === ']') return this.close('array', i);
        if (c === '}') return this.close('object', i);
        this.fail(`expected "," or a closing bracket, got ${JSON.stringify(c)}`, i);
    }
  }

  private keepElement(frame: Frame): boolean {
    return frame.value !== undefined && this.values < this.limits.maxValues;
  }

  private keepMember(frame: Frame): boolean {
    return frame.value !== undefined && (this.values < this.limits.maxValues || frame.depth <= 1);
  }

  private beginValue(c: string, i: number): void {
    if (!this.keep && this.stack[this.stack.length - 1]?.value !== undefined) this.report.valuesDropped++;
    if (c === '{' || c === '[') {
      if (this.stack.length >= this.limits.maxDepth) this.fail('nested too deeply', i);
      const value = this.keep ? (c === '{' ? {} : []) : undefined;
      if (value !== undefined) this.attach(value);
      const frame: Frame = { kind: c === '{' ? 'object' : 'array', value, depth: this.stack.length + 1 };
      this.stack.push(frame);
      if (c === '{') this.mode = Mode.KeyOrClose;
      else {
        this.mode = Mode.ValueOrClose;
        this.keep = this.keepElement(frame);
      }
      return;
    }
    if (c === '"') return this.beginString(false);
    if (c === '-' || (c >= '0' && c <= '9') || c === 't' || c === 'f' || c === 'n') {
      this.literal = c;
      this.mode = Mode.Literal;
      return;
    }
    this.fail(`unexpected ${JSON.stringify(c)}`, i);
  }

  private close(kind: Frame['kind'], i: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!top || top.kind !== kind) this.fail(`unexpected ${kind === 'array' ? ']' : '}'}`, i);
    this.stack.pop();
    this.afterValue();
  }

  private afterValue(): void {
    this.mode = Mode.AfterValue;
    const top = this.stack[this.stack.length - 1];
    this.keep = top?.value !== undefined;
  }

  /** Puts a kept value where it belongs and counts it. */
  private attach(value: unknown): void {
    this.values++;
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.root = value;
      this.hasRoot = true;
    } else if (Array.isArray(top.value)) top.value.push(value);
    else if (top.value) {
      const key = top.key!;
      if (key === '__proto__')
        Object.defineProperty(top.value, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else top.value[key] = value;
    }
  }

  private finishLiteral(i: number): void {
    let value: unknown;
    try {
      value = JSON.parse(this.literal);
    } catch {
      this.fail(`bad literal ${JSON.stringify(this.literal.slice(0, 40))}`, i);
    }
    if (this.keep) this.attach(value);
    else if (this.stack.length === 0) this.hasRoot = true;
    this.literal = '';
    this.afterValue();
  }

  private beginString(isKey: boolean): void {
    const top = this.stack[this.stack.length - 1];
    const keep = isKey ? top?.value !== undefined : this.keep;
    const room = Math.max(0, this.limits.maxTotalChars - this.keptChars);
    const limit = Math.max(this.limits.keepWholeChars, Math.min(this.limits.maxStringChars, room));
    this.str = {
      isKey,
      buf: keep ? new HeadTailBuffer(limit) : undefined,
      limit,
      pending: '',
      total: 0,
      dropKey: !isKey && top?.kind === 'object' && top.key !== undefined && this.limits.dropKeys.has(top.key),
    };
    this.mode = Mode.String;
  }

  private append(s: string): void {
    const str = this.str!;
    str.total += s.length;
    if (!str.buf) return;
    str.pending += s;
    if (str.pending.length >= PENDING_FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    const str = this.str!;
    if (str.buf && str.pending) str.buf.push(str.pending);
    str.pending = '';
  }

  /** Reads string content from `i`; returns the index after what it consumed. */
  private stringRun(text: string, i: number): number {
    SPECIAL.lastIndex = i;
    const m = SPECIAL.exec(text);
    const j = m ? m.index : text.length;
    if (j > i) this.append(text.slice(i, j));
    if (!m) return text.length;
    if (m[0] === '\\') {
      this.mode = Mode.Escape;
      return j + 1;
    }
    this.finishString();
    return j + 1;
  }

  private finishString(): void {
    this.flush();
    const str = this.str!;
    this.str = undefined;
    let value = '';
    if (str.buf) {
      const cut = str.total > str.limit;
      value = cut && str.dropKey ? '' : str.buf.toString();
      if (cut) {
        this.report.stringsCut++;
        this.report.charsOmitted += Math.max(0, str.total - value.length);
      }
      this.keptChars += value.length;
    }
    if (str.isKey) {
      this.stack[this.stack.length - 1]!.key = value;
      this.mode = Mode.Colon;
      return;
    }
    if (str.buf) this.attach(value);
    else if (this.stack.length === 0) this.hasRoot = true;
    this.afterValue();
  }
}
