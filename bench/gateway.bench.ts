/**
 * tui-gateway benchmarks. Methods in gateway/fanout.ts and
 * gateway/attach-memory.ts; run with `npm run bench -- --filter gateway`.
 *
 * - `gateway.fanout.<N>.*`: one streamed reply of 10,000 deltas to N = 1, 4, 16 attached clients,
 *   through a real daemon's session layer, beside a bare `ws` broadcast of the same frames
 *   (`….bare_ws.*`) measured in the same run, interleaved run by run:
 *   `throughput` (deltas/s reaching every client, as fast as it goes), `latency_p50` / `_p99`
 *   (emit → client, paced at ≈ 5k deltas/s), `cpu_per_delta` (CPU of the sending process per
 *   delta, all clients), `ratio_vs_bare_ws` (gateway CPU / bare CPU for the same burst; goal
 *   ≤ 1.5) and `wall_ratio_vs_bare_ws` (time until the last client has the last delta).
 * - `gateway.attach.10k_messages.{cold,warm}`: `session.attach` to a session of 10,000 stored
 *   messages (goal p50 ≤ 50 ms); `.first_prompt`: submit → model called on a freshly loaded one.
 * - `gateway.rss.{idle_daemon,100_idle_sessions}`: daemon VmRSS (goal ≤ 200 MB with 100).
 */
import type { Benchmark } from './lib/types.js';
import { measureAttach, measureIdleSessionsRss } from './gateway/attach-memory.js';
import { DELTAS, measureFanout, type FanoutResult, type RunStats } from './gateway/fanout.js';

/** One measurement shared by the benchmarks that report parts of it. */
function memo<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

const ms = (us: number): number => us / 1000;

function fanoutBenchmarks(n: number): Benchmark[] {
  const result = memo<FanoutResult>(() => measureFanout(n));
  const of = (pick: (r: FanoutResult) => RunStats[], f: (s: RunStats) => number) => async () =>
    pick(await result()).map(f);
  const pair = (f: (g: RunStats, b: RunStats) => number) => async () => {
    const r = await result();
    return r.gateway.burst.map((g, i) => f(g, r.bare.burst[i]!));
  };
  const p = `gateway.fanout.${n}`;
  const sides = [
    ['', (r: FanoutResult) => r.gateway],
    ['.bare_ws', (r: FanoutResult) => r.bare],
  ] as const;
  return [
    ...sides.flatMap(([suffix, side]): Benchmark[] => [
      {
        name: `${p}${suffix}.throughput`,
        unit: 'deltas/s',
        higherIsBetter: true,
        run: of(
          (r) => side(r).burst,
          (s) => DELTAS / (s.elapsedUs / 1e6),
        ),
      },
      {
        name: `${p}${suffix}.latency_p50`,
        unit: 'ms',
        run: of(
          (r) => side(r).paced,
          (s) => ms(s.p50Us),
        ),
      },
      {
        name: `${p}${suffix}.latency_p99`,
        unit: 'ms',
        run: of(
          (r) => side(r).paced,
          (s) => ms(s.p99Us),
        ),
      },
      {
        name: `${p}${suffix}.cpu_per_delta`,
        unit: 'µs',
        run: of(
          (r) => side(r).burst,
          (s) => s.cpuUs / DELTAS,
        ),
      },
    ]),
    { name: `${p}.ratio_vs_bare_ws`, unit: '×', goal: 1.5, run: pair((g, b) => g.cpuUs / b.cpuUs) },
    {
      name: `${p}.wall_ratio_vs_bare_ws`,
      unit: '×',
      goal: 1.5,
      run: pair((g, b) => g.elapsedUs / b.elapsedUs),
    },
  ];
}

const attach = memo(() => measureAttach());
const rss = memo(async () => {
  const samples = [];
  for (let i = 0; i < 3; i++) samples.push(await measureIdleSessionsRss());
  return samples;
});

export const benchmarks: Benchmark[] = [
  ...[1, 4, 16].flatMap(fanoutBenchmarks),
  { name: 'gateway.attach.10k_messages.cold', unit: 'ms', goal: 50, run: async () => (await attach()).cold },
  { name: 'gateway.attach.10k_messages.warm', unit: 'ms', goal: 50, run: async () => (await attach()).warm },
  {
    name: 'gateway.attach.10k_messages.first_prompt',
    unit: 'ms',
    run: async () => (await attach()).firstPrompt,
  },
  { name: 'gateway.rss.idle_daemon', unit: 'MB', run: async () => (await rss()).map((s) => s.idle) },
  {
    name: 'gateway.rss.100_idle_sessions',
    unit: 'MB',
    goal: 200,
    run: async () => (await rss()).map((s) => s.sessions),
  },
];
