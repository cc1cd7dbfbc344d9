/**
 * A deterministic synthetic chat corpus for the SessionDB benchmarks: Zipf-distributed words
 * (a few very common, most rare), user/assistant/tool turns of realistic lengths, some
 * hyphenated model names, paths and command output.
 */
import type { NewMessage } from '../../core/src/state/types.js';

/** A seeded PRNG (mulberry32) so every run indexes the same text. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'to',
  'ri',
  'mu',
  'se',
  'na',
  'lo',
  'pe',
  'vi',
  'da',
  'qu',
  'zo',
  'ba',
  'fe',
  'gi',
  'hu',
];
const EXTRAS = [
  'gpt-4o',
  'gpt-4o-mini',
  'claude-3-5-sonnet',
  'llama-3.1-8b',
  'src/state/session-db.ts',
  'npm run build',
];

/** Text generator over a vocabulary of `size` made-up words. */
export class Corpus {
  readonly vocab: string[] = [];
  private readonly rnd: () => number;

  constructor(seed = 7, size = 20_000) {
    this.rnd = prng(seed);
    const seen = new Set<string>();
    while (this.vocab.length < size) {
      let w = '';
      const n = 2 + Math.floor(this.rnd() * 3);
      for (let j = 0; j < n; j++) w += SYLLABLES[Math.floor(this.rnd() * SYLLABLES.length)];
      if (this.vocab.length % 9 === 0) w += String(this.vocab.length % 97);
      if (!seen.has(w)) {
        seen.add(w);
        this.vocab.push(w);
      }
    }
  }

  /** A word, index drawn from a steep power law: vocab[0] is in roughly one message in two. */
  word(): string {
    return this.vocab[Math.floor(this.vocab.length * Math.pow(this.rnd(), 4))]!;
  }

  /** `n` words, with an occasional model name or path mixed in. */
  text(n: number): string {
    const ws: string[] = [];
    for (let k = 0; k < n; k++)
      ws.push(this.rnd() < 0.01 ? EXTRAS[Math.floor(this.rnd() * EXTRAS.length)]! : this.word());
    return ws.join(' ');
  }

  /** The `i`-th message of a conversation: user (short), assistant (medium), tool (long output). */
  message(i: number): NewMessage {
    const kind = i % 3;
    if (kind === 0) return { role: 'user', content: this.text(8 + Math.floor(this.rnd() * 30)) };
    if (kind === 1) return { role: 'assistant', content: this.text(30 + Math.floor(this.rnd() * 120)) };
    const lines = Array.from({ length: 3 + Math.floor(this.rnd() * 12) }, () =>
      this.text(6 + Math.floor(this.rnd() * 10)),
    );
    return { role: 'tool', content: lines.join('\n'), tool_name: 'terminal', tool_call_id: `call_${i}` };
  }
}
