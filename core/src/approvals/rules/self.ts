/**
 * The rules about Hermes itself: the agent may not reach what guards it. Its own home (settings,
 * keys, sessions, the daemon's token, other profiles: `hermes-home`, self-home.ts), its own CLI
 * verbs and daemon RPC that change settings, profiles, pairing, cron jobs, skills or sessions
 * (`hermes-cli`, self-cli.ts), and its own daemon's process or service (`hermes-daemon-kill`,
 * self-daemon.ts). They apply in every lane (TUI, chat, cron, API); cron runs also refuse
 * `hermes-daemon-kill` outright (cron/run.ts: a job may not end its own scheduler).
 *
 * Where the root lives and which of its folders are the agent's own: self-places.ts; the script
 * text a command runs: self-scripts.ts; how a line finds the daemon's pid: self-lookup.ts. Path
 * words are expanded by rules/context.ts.
 *
 * Judgement calls: a path word with a variable the context does not know, or a command
 * substitution, asks when its known tail names a Hermes place (`$X/.env`); `pkill node` and
 * `killall node` ask (the daemon runs as `node`); read-only CLI verbs never ask, whatever the
 * profile they name.
 */
import { HERMES_CLI_RULE } from './self-cli.js';
import { DAEMON_KILL_RULE } from './self-daemon.js';
import { HERMES_HOME_RULE } from './self-home.js';
import type { CommandRule } from './types.js';

export { HERMES_CLI_RULE } from './self-cli.js';
export { DAEMON_KILL_RULE, daemonStopTargets } from './self-daemon.js';
export { HERMES_HOME_RULE } from './self-home.js';

/** The rules about Hermes itself, in the order their hits are listed. */
export const SELF_RULES: readonly CommandRule[] = [HERMES_HOME_RULE, HERMES_CLI_RULE, DAEMON_KILL_RULE];
