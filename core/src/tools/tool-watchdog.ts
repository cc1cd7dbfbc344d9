/**
 * The watchdog of tool processes: one small `/bin/sh` process per Hermes process (daemon or
 * `hermes chat`) that ends the tool process groups still running when that process dies, however
 * it dies (SIGKILL, the OOM killer, a crash), without waiting for a next daemon to start.
 *
 * - It is started on the first tool process, detached (its own process group and session, so a
 *   Ctrl+C or a kill of the owner's group does not reach it) with `hermes-tool-watchdog` as its
 *   `$0`, stdout and stderr to /dev/null, unreferenced (it never keeps its owner alive).
 * - Its stdin is a pipe from its owner: `+ <pid> <start>` when a group starts (`<start>`: the
 *   leader's start time, `-` when unknown), `- <pid> <start>` when it ended (the start time tells
 *   an ended group from a later one with the same pid). The kernel closes the pipe
 *   when the owner dies; on that end of input the watchdog sends SIGTERM to each group still
 *   listed whose leader still has the recorded start time (a reused pid is left alone; a leader
 *   already gone means the group, if any, is the recorded one), waits up to `grace` for them to
 *   go, SIGKILLs the rest, and exits. With nothing listed it exits at once.
 * - The pipe's write end is close-on-exec, so no tool process holds it and delays the end.
 * - When the watchdog itself was killed, the next group starts a new one (told every group still
 *   running). Without a watchdog the record and the reaping at the next daemon start
 *   (process-registry.ts) still stop what is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The `$0` of the watchdog shell: how it shows in `ps`. */
export const WATCHDOG_NAME = 'hermes-tool-watchdog';

/** Time between SIGTERM and SIGKILL when the watchdog ends the groups, ms. */
export const WATCHDOG_GRACE_MS = 2_000;

/**
 * The watchdog's script ($1: grace in tenths of a second; then the groups already listed when it
 * starts, each `pid:start`, so a watchdog started for a group knows it before anything is read
 * from the pipe). POSIX sh (dash, busybox, bash): the list is a space-separated `pid:start` string; the start time is field 22 of /proc/<pid>/stat,
 * counted after the last `) ` since the command name may hold spaces and parentheses.
 */
export const WATCHDOG_SCRIPT = `
w=$1; shift; g=" $* "
while read -r op p s; do
  case $op in
    +) g="$g$p:$s " ;;
    -) n=' '; for e in $g; do [ "$e" = "$p:$s" ] || n="$n$e "; done; g=$n ;;
  esac
done
t=''
for e in $g; do
  p=\${e%%:*}; s=\${e#*:}
  if [ "$s" != - ] && read -r st < /proc/$p/stat; then
    set -- \${st##*") "}
    shift 19
    [ "$1" = "$s" ] || continue
  fi
  kill -s TERM -- -$p && t="$t $p"
done 2>/dev/null
i=0
while [ -n "$t" ] && [ $i -lt $w ]; do
  n=''; for p in $t; do kill -0 -- -$p 2>/dev/null && n="$n $p"; done; t=$n
  [ -n "$t" ] && sleep 0.1; i=$((i + 1))
done
for p in $t; do kill -s KILL -- -$p 2>/dev/null; done
exit 0
`;

/** The watchdog of this process, and the groups it was told of (pid → start time). */
let child: ChildProcess | undefined;
const groups = new Map<number, string | null>();

function line(op: '+' | '-', pid: number, start: string | null): string {
  return `${op} ${pid} ${start ?? '-'}\n`;
}

function send(text: string): void {
  try {
    child?.stdin?.write(text);
  } catch {
    /* the watchdog is gone: the next watch starts another */
  }
}

/** Starts the watchdog, told of every group already listed. Without /bin/sh: none. */
function spawnWatchdog(): void {
  if (!existsSync('/bin/sh')) return;
  let c: ChildProcess;
  try {
    // the groups go in its arguments: a pipe write could still be queued when this process dies
    const listed = [...groups].map(([pid, start]) => `${pid}:${start ?? '-'}`);
    const args = [
      '-c',
      WATCHDOG_SCRIPT,
      WATCHDOG_NAME,
      String(Math.ceil(WATCHDOG_GRACE_MS / 100)),
      ...listed,
    ];
    c = spawn('/bin/sh', args, {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    return;
  }
  child = c;
  const forget = (): void => {
    if (child === c) child = undefined;
  };
  c.on('error', forget);
  c.on('exit', forget);
  c.stdin?.on('error', forget);
  c.unref();
  (c.stdin as unknown as { unref?: () => void } | null)?.unref?.();
}

/**
 * Has the watchdog end process group `pid` (leader started at `start`, null when unknown) if this
 * process dies while the group runs. Starts the watchdog when none runs.
 */
export function watchToolGroup(pid: number, start: string | null): void {
  groups.set(pid, start);
  if (!child || child.exitCode !== null || child.signalCode !== null) spawnWatchdog();
  else send(line('+', pid, start));
}

/**
 * The group `pid` whose leader started at `start` ended (or was stopped): the watchdog forgets it.
 * A later group with the same pid and another start time stays watched.
 */
export function unwatchToolGroup(pid: number, start: string | null): void {
  if (!groups.has(pid) || groups.get(pid) !== start) return;
  groups.delete(pid);
  send(line('-', pid, start));
}

/** Pid of this process's watchdog while it runs (for tests and diagnostics). */
export function toolWatchdogPid(): number | undefined {
  return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
}
