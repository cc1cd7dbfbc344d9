/**
 * A real IRC server for tests: Debian's `ngircd` (installed by .ci/run) in the foreground (`-n`)
 * on a free loopback port, with a generated config in a temp folder. `stop()` kills it.
 */
import { describe } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian installs the server. */
/** Path of the ngircd binary, when installed. */
export const NGIRCD = findNgircd();

/**
 * ngircd on PATH, else in the sbin folders a user's PATH often lacks (Debian installs it in
 * /usr/sbin). With `HERMES_TEST_PATH_ONLY=1` only PATH counts: a run with a PATH that leaves the
 * system programs out (the clean-machine check) then skips the IRC suites, as on a machine
 * without ngircd.
 */
function findNgircd(): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((d) => join(d, 'ngircd'))
    .find((p) => existsSync(p));
  if (onPath || process.env.HERMES_TEST_PATH_ONLY === '1') return onPath;
  return ['/usr/local/sbin/ngircd', '/usr/sbin/ngircd', '/sbin/ngircd'].find((p) => existsSync(p));
}

/** A running ngircd. */
export interface Ngircd {
  port: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound and released). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Starts ngircd and resolves once it listens. @throws when it is not installed or does not start.
 * @param port where it listens (default: a free port).
 */
export async function startNgircd(timeoutMs = 15_000, port?: number): Promise<Ngircd> {
  if (!NGIRCD) throw new Error('ngircd is not installed (apt-get install -y ngircd)');
  const dir = mkdtempSync(join(tmpdir(), 'hermes-ngircd-'));
  port ??= await freePort();
  const conf = join(dir, 'ngircd.conf');
  writeFileSync(
    conf,
    [
      '[Global]',
      'Name = irc.hermes.test',
      'Info = Hermes test server',
      'AdminInfo1 = tests',
      'AdminInfo2 = loopback',
      'AdminEMail = tests@localhost',
      'Listen = 127.0.0.1',
      `Ports = ${port}`,
      'MotdPhrase = "hermes tests"',
      '[Limits]',
      'MaxConnectionsIP = 0',
      'MaxJoins = 0',
      'MaxNickLength = 30',
      'PingTimeout = 300',
      'PongTimeout = 60',
      // no flood penalties: burst tests send many lines at once from one client
      'MaxPenaltyTime = 0',
      '[Options]',
      'DNS = no',
      'Ident = no',
      'PAM = no',
      '',
    ].join('\n'),
  );
  const child = spawn(NGIRCD, ['-n', '-f', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + timeoutMs;
  while (!/Now listening on/.test(out)) {
    if (child.exitCode !== null) throw new Error(`ngircd exited with ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`ngircd did not start within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/**
 * `describe` for a suite that needs a real IRC server: run in order where ngircd is installed,
 * else skipped with the reason in its title (listed by the summary reporter, never silently).
 */
export function describeIrc(title: string, suite: () => void): void {
  if (NGIRCD) describe.sequential(title, suite);
  else describe.skip(`${title} [skipped: ngircd is not installed]`, suite);
}
