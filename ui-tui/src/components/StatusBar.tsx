/**
 * The status bar: profile · model · context used (tokens and %) · cost (turn, session) · cwd ·
 * session title ·
 * connection state · clients attached · running background processes · busy/idle with elapsed time. One line, cut to the width.
 */
import { Box, Text } from 'ink';
import type { ConnectionState } from '@hermes/client';
import { cleanText, formatElapsed, formatTokens, tildePath, truncate } from './format.js';
import { useNow } from './hooks.js';
import { theme } from './theme.js';

/** Props of `StatusBar`. */
export interface StatusBarProps {
  profile: string | null;
  model: string | null;
  contextTokens: number | null;
  contextWindow: number | null;
  cwd: string | null;
  title: string | null;
  connection: ConnectionState;
  /** The daemon's life (client/daemon-keeper.ts): while not connected, `stopped` and `starting` say more than "reconnecting". */
  daemon?: 'ok' | 'starting' | 'stopped' | 'failed';
  clients: number | null;
  busy: boolean;
  /** `thinking`, `responding`, `tools`, `waiting_approval` … */
  activity: string | null;
  turnStartedAt: number | null;
  width?: number;
  /** Fixed clock (tests); otherwise it ticks every second while busy. */
  now?: number;
  /** Running background processes of the profile (`/ps` lists them); shown when above 0. */
  background?: number;
  /** The last turn's cost as the daemon priced it (`$0.0123`, `local`, `unknown` …). */
  turnCost?: string;
  /** The session's cost so far, as the daemon priced it. */
  sessionCost?: string;
}

/** The cost part: `$0.0012 turn · $0.45 session`, `local` when both are local. */
function costPart(turn: string | undefined, session: string | undefined): string | null {
  if (turn === undefined && session === undefined) return null;
  if ((turn ?? 'local') === 'local' && (session ?? 'local') === 'local') return 'local (no cost)';
  const parts = [
    turn !== undefined ? `${turn} turn` : null,
    session !== undefined ? `${session} session` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

const CONNECTION: Record<ConnectionState, { text: string; color: string }> = {
  connected: { text: '● connected', color: theme.ok },
  connecting: { text: '◌ connecting', color: theme.warn },
  reconnecting: { text: '◌ reconnecting', color: theme.warn },
  disconnected: { text: '○ disconnected', color: theme.error },
};

const DAEMON: Record<'starting' | 'stopped' | 'failed', { text: string; color: string }> = {
  starting: { text: '◌ starting the daemon', color: theme.warn },
  stopped: { text: '○ daemon stopped (r starts it)', color: theme.error },
  failed: { text: '○ daemon failed to start (r retries)', color: theme.error },
};

const ACTIVITY: Record<string, string> = {
  thinking: 'thinking',
  responding: 'responding',
  tools: 'running tools',
  retrying: 'retrying',
  compressing: 'compressing',
  waiting_approval: 'waiting for approval',
};

/** The status bar. */
export function StatusBar(props: StatusBarProps): React.JSX.Element {
  const ticking = useNow(1000, props.busy && props.now === undefined);
  const now = props.now ?? ticking;
  const width = props.width ?? 80;
  // drop: the higher, the sooner a part goes when the line is too narrow (0: never)
  const parts: Array<{ text: string; color?: string; drop: number }> = [];
  if (props.profile) parts.push({ text: props.profile, color: theme.accent, drop: 1 });
  // the model outlasts the context counter: which model answers matters more than how full it is
  if (props.model) parts.push({ text: props.model, drop: 2 });
  if (props.contextTokens !== null) {
    const pct =
      props.contextWindow && props.contextWindow > 0
        ? ` (${Math.round((props.contextTokens / props.contextWindow) * 100)}%)`
        : '';
    const of = props.contextWindow ? `/${formatTokens(props.contextWindow)}` : '';
    parts.push({ text: `ctx ${formatTokens(props.contextTokens)}${of}${pct}`, drop: 3 });
  }
  const cost = costPart(props.turnCost, props.sessionCost);
  if (cost) parts.push({ text: cost, drop: 3 });
  if (props.cwd) parts.push({ text: tildePath(props.cwd), drop: 5 });
  if (props.title) parts.push({ text: `“${truncate(cleanText(props.title), 30)}”`, drop: 4 });
  const conn =
    props.connection !== 'connected' && props.daemon && props.daemon !== 'ok'
      ? DAEMON[props.daemon]
      : CONNECTION[props.connection];
  parts.push({ text: conn.text, color: conn.color, drop: 0 });
  if (props.clients !== null && props.clients > 1) parts.push({ text: `${props.clients} clients`, drop: 1 });
  if (props.background) parts.push({ text: `⚙ ${props.background} bg`, color: theme.accent, drop: 2 });
  if (props.busy) {
    const what = (props.activity && ACTIVITY[props.activity]) ?? 'working';
    const elapsed = props.turnStartedAt !== null ? ` ${formatElapsed(now - props.turnStartedAt)}` : '';
    parts.push({ text: `◆ ${what}${elapsed}`, color: theme.warn, drop: 0 });
  } else {
    parts.push({ text: '◇ idle', color: theme.muted, drop: 0 });
  }
  const sep = ' · ';
  const len = (ps: typeof parts): number =>
    ps.reduce((n, p) => n + p.text.length, 0) + sep.length * (ps.length - 1);
  let shown = parts;
  while (len(shown) > width) {
    const worst = Math.max(...shown.map((p) => p.drop));
    if (worst === 0) break;
    const i = shown.findIndex((p) => p.drop === worst);
    shown = shown.filter((_, j) => j !== i);
  }
  return (
    <Box>
      <Text wrap="truncate-end">
        {shown.map((p, i) => (
          <Text key={i}>
            {i > 0 ? <Text color={theme.muted}>{sep}</Text> : null}
            <Text {...(p.color ? { color: p.color } : {})}>{p.text}</Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
