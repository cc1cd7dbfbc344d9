/**
 * Real mail servers for tests: Debian's dovecot (IMAP, LMTP, and the SASL auth socket) and postfix
 * (SMTP), installed by .ci/run, run as a private pair on free loopback ports from one temp folder.
 * Postfix accepts mail for `@hermes.test` (SMTP AUTH through dovecot, or from loopback) and hands
 * it over LMTP to dovecot, which stores it in a maildir per user under the temp folder. Mail for
 * any other domain is refused by postfix (`error:` transport): nothing leaves the machine.
 *
 * Postfix's master must start as root (it drops to the `postfix` user), so the servers run only
 * as root (CI runs as root); elsewhere `describeMail` skips with the reason in its title.
 * Start-up takes well under a second; `stop()` stops both and removes the folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { freePort } from './ngircd.js';

/** The mail domain of the test servers. */
export const MAIL_DOMAIN = 'hermes.test';

/** A program in PATH or in the sbin folders a user's PATH often lacks. */
function findProgram(name: string): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
  if (onPath || process.env.HERMES_TEST_PATH_ONLY === '1') return onPath;
  return ['/usr/local/sbin', '/usr/sbin', '/sbin'].map((d) => join(d, name)).find((p) => existsSync(p));
}

const DOVECOT = findProgram('dovecot');
const POSTFIX = findProgram('postfix');

/** Why the mail servers cannot run here, or undefined when they can. */
export const mailSkipReason: string | undefined = !DOVECOT
  ? 'dovecot is not installed (apt-get install -y dovecot-imapd dovecot-lmtpd)'
  : !POSTFIX
    ? 'postfix is not installed (apt-get install -y postfix)'
    : !existsSync('/usr/lib/dovecot/lmtp')
      ? 'dovecot-lmtpd is not installed (apt-get install -y dovecot-lmtpd)'
      : process.getuid?.() !== 0
        ? "postfix's master must start as root"
        : undefined;

/**
 * `describe` for a suite that needs the real mail servers: run in order where they can run, else
 * skipped with the reason in its title (listed by the summary reporter, never silently).
 */
export function describeMail(title: string, suite: () => void): void {
  if (!mailSkipReason) describe.sequential(title, suite);
  else describe.skip(`${title} [skipped: ${mailSkipReason}]`, suite);
}

/** A mailbox user of the test servers (`name@hermes.test`, password). */
export interface MailUser {
  address: string;
  password: string;
}

/** The running pair. */
export interface MailServers {
  imapPort: number;
  /** Postfix's submission port: SMTP with login (SASL through dovecot). */
  smtpPort: number;
  /**
   * Postfix's port for mail from the loopback network without login, as another server delivers
   * inbound mail: it keeps taking mail while dovecot (and so SASL) is down.
   */
  mxPort: number;
  dir: string;
  users: MailUser[];
  /** The user `name@hermes.test` (created at start). */
  user(name: string): MailUser;
  /** Closes every IMAP connection of one user (`doveadm kick`): a dropped connection. */
  kick(address: string): void;
  /** Stops dovecot (IMAP and LMTP go down; postfix keeps mail queued). */
  stopDovecot(): Promise<void>;
  /** Starts dovecot again on the same ports. */
  startDovecot(): Promise<void>;
  /** Stops postfix (SMTP goes down). */
  stopPostfix(): Promise<void>;
  /** Starts postfix again on the same port. */
  startPostfix(): Promise<void>;
  /** The log lines of both servers. */
  logs(): string;
  /**
   * The IMAP commands every client of `address` sent so far (dovecot's rawlog of the sessions;
   * each line one command, as sent). Empty unless started with `rawlog: true`.
   */
  imapCommands(address: string): string[];
  /** Stops both servers and removes the folder. */
  stop(): Promise<void>;
}

function waitPort(port: number, timeoutMs: number, what: string, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const s = netConnect({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        resolve();
      });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > deadline)
          reject(new Error(`${what} did not listen within ${timeoutMs} ms:\n${log()}`));
        else setTimeout(attempt, 30);
      });
    };
    attempt();
  });
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Options of `startMailServers`. */
export interface MailServerOptions {
  /** Longest wait for each server to listen, ms (default 15 s). */
  timeoutMs?: number;
  /** False: dovecot does not announce IDLE (a server clients must poll). Default true. */
  idle?: boolean;
  /** True: dovecot records every IMAP session of a user (rawlog) for `imapCommands`. */
  rawlog?: boolean;
}

/**
 * Starts dovecot and postfix with users `names` (each `<name>@hermes.test`, password
 * `<name>-pw`).
 * @throws when a server is missing (`mailSkipReason`) or does not start within the timeout.
 */
export async function startMailServers(names: string[], opts: MailServerOptions = {}): Promise<MailServers> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  if (mailSkipReason) throw new Error(mailSkipReason);
  const dir = mkdtempSync(join(tmpdir(), 'hermes-mail-'));
  chmodSync(dir, 0o755);
  const [imapPort, lmtpPort, authPort, smtpPort, mxPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const users = names.map((n) => ({ address: `${n}@${MAIL_DOMAIN}`, password: `${n}-pw` }));
  for (const d of ['dovecot-run', 'dovecot-state', 'mail', 'postfix', 'queue', 'data'])
    mkdirSync(join(dir, d));
  const uid = (name: string): number =>
    Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
  const gid = (name: string): number =>
    Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
  chownSync(join(dir, 'mail'), uid('dovecot'), gid('dovecot'));
  if (opts.rawlog) {
    mkdirSync(join(dir, 'rawlog'));
    for (const u of users) mkdirSync(join(dir, 'rawlog', u.address));
    for (const d of [join(dir, 'rawlog'), ...users.map((u) => join(dir, 'rawlog', u.address))])
      chownSync(d, uid('dovecot'), gid('dovecot'));
  }
  chownSync(join(dir, 'data'), uid('postfix'), gid('postfix'));
  writeFileSync(
    join(dir, 'passwd'),
    users.map((u) => `${u.address}:{PLAIN}${u.password}::::::`).join('\n') + '\n',
  );
  const dovecotConf = join(dir, 'dovecot.conf');
  const dovecotLog = join(dir, 'dovecot.log');
  writeFileSync(
    dovecotConf,
    [
      `base_dir = ${dir}/dovecot-run`,
      `state_dir = ${dir}/dovecot-state`,
      `instance_name = hermes-test-${imapPort}`,
      `log_path = ${dovecotLog}`,
      'protocols = imap lmtp',
      'listen = 127.0.0.1',
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      // a refused login is answered at once (the default waits 2 s)
      'auth_failure_delay = 0',
      `mail_location = maildir:${dir}/mail/%u`,
      'first_valid_uid = 1',
      'passdb {',
      '  driver = passwd-file',
      `  args = scheme=PLAIN ${dir}/passwd`,
      '}',
      'userdb {',
      '  driver = static',
      `  args = uid=dovecot gid=dovecot home=${dir}/mail/%u`,
      '}',
      'service imap-login {',
      '  chroot =',
      '  inet_listener imap {',
      '    address = 127.0.0.1',
      `    port = ${imapPort}`,
      '  }',
      '  inet_listener imaps {',
      '    port = 0',
      '  }',
      '}',
      'service lmtp {',
      '  inet_listener lmtp {',
      '    address = 127.0.0.1',
      `    port = ${lmtpPort}`,
      '  }',
      '}',
      'service auth {',
      '  inet_listener auth-inet {',
      '    address = 127.0.0.1',
      `    port = ${authPort}`,
      '  }',
      '}',
      'service anvil {',
      '  chroot =',
      '}',
      ...(opts.idle === false || opts.rawlog
        ? [
            'protocol imap {',
            ...(opts.idle === false
              ? ['  imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS']
              : []),
            // the sessions' input is written to <rawlog>/<user>/*.in as it comes
            ...(opts.rawlog ? [`  rawlog_dir = ${dir}/rawlog/%u`] : []),
            '}',
          ]
        : []),
      '',
    ].join('\n'),
  );
  const conf = join(dir, 'postfix');
  const maillog = join(dir, 'maillog');
  writeFileSync(
    join(conf, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${dir}/queue`,
      `data_directory = ${dir}/data`,
      'meta_directory = /etc/postfix',
      'shlib_directory = /usr/lib/postfix',
      'daemon_directory = /usr/lib/postfix/sbin',
      'mail_owner = postfix',
      'setgid_group = postdrop',
      `myhostname = mx.${MAIL_DOMAIN}`,
      `mydomain = ${MAIL_DOMAIN}`,
      `myorigin = ${MAIL_DOMAIN}`,
      `mydestination = ${MAIL_DOMAIN}`,
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mynetworks = 127.0.0.0/8',
      'local_recipient_maps =',
      `local_transport = lmtp:inet:127.0.0.1:${lmtpPort}`,
      'default_transport = error:no outside mail from the test servers',
      'smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination',
      'smtpd_sasl_auth_enable = yes',
      'smtpd_sasl_type = dovecot',
      `smtpd_sasl_path = inet:127.0.0.1:${authPort}`,
      'smtpd_tls_security_level = none',
      `maillog_file = ${maillog}`,
      `maillog_file_prefixes = ${dir}`,
      'alias_maps =',
      'alias_database =',
      'biff = no',
      'smtputf8_enable = no',
      // small enough that a test can exceed it cheaply (a final 5xx refusal)
      'message_size_limit = 2000000',
      // mail to a stopped LMTP is retried soon (the dovecot restart test)
      'queue_run_delay = 1s',
      'minimal_backoff_time = 1s',
      'maximal_backoff_time = 2s',
      '',
    ].join('\n'),
  );
  const unix = (name: string, priv: string, limit: string, cmd: string): string =>
    `${name} unix ${priv} - n - ${limit} ${cmd}`;
  writeFileSync(
    join(conf, 'master.cf'),
    [
      `127.0.0.1:${smtpPort} inet n - n - - smtpd`,
      // no SASL here: a smtpd that starts while dovecot's auth is down would otherwise exit
      `127.0.0.1:${mxPort} inet n - n - - smtpd -o smtpd_sasl_auth_enable=no`,
      'pickup unix n - n 60 1 pickup',
      unix('cleanup', 'n', '0', 'cleanup'),
      'qmgr unix n - n 300 1 qmgr',
      unix('rewrite', '-', '-', 'trivial-rewrite'),
      unix('bounce', '-', '0', 'bounce'),
      unix('defer', '-', '0', 'bounce'),
      unix('trace', '-', '0', 'bounce'),
      unix('verify', '-', '1', 'verify'),
      unix('proxymap', '-', '-', 'proxymap'),
      unix('showq', 'n', '-', 'showq'),
      unix('error', '-', '-', 'error'),
      unix('retry', '-', '-', 'error'),
      unix('discard', '-', '-', 'discard'),
      unix('lmtp', '-', '-', 'lmtp'),
      unix('anvil', '-', '1', 'anvil'),
      unix('scache', '-', '1', 'scache'),
      'postlog unix-dgram n - n - 1 postlogd',
      '',
    ].join('\n'),
  );

  let dovecot: ChildProcess | undefined;
  const startDovecot = async (): Promise<void> => {
    const child = spawn(DOVECOT!, ['-F', '-c', dovecotConf], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.resume();
    child.stderr!.resume();
    dovecot = child;
    await waitPort(imapPort, timeoutMs, 'dovecot', () => readLog(dovecotLog));
  };
  const stopDovecot = async (): Promise<void> => {
    const child = dovecot;
    dovecot = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(t);
  };
  // the queue folders as `postfix check` would make them (postfix-files), and `quick-start`, which
  // skips that check (it takes ~2.5 s)
  const queue = join(dir, 'queue');
  chmodSync(queue, 0o755);
  const postdrop = gid('postdrop');
  const postfixUid = uid('postfix');
  const postfixGid = gid('postfix');
  for (const [name, mode, group] of [
    ...[
      'active',
      'bounce',
      'corrupt',
      'defer',
      'deferred',
      'flush',
      'hold',
      'incoming',
      'private',
      'saved',
      'trace',
    ].map((n) => [n, 0o700, postfixGid] as const),
    ['maildrop', 0o730, postdrop] as const,
    ['public', 0o710, postdrop] as const,
  ]) {
    mkdirSync(join(queue, name), { mode });
    chmodSync(join(queue, name), mode);
    chownSync(join(queue, name), postfixUid, group);
  }
  mkdirSync(join(queue, 'pid'), { mode: 0o755 });
  let postfixOut = '';
  let postfix: ChildProcess | undefined;
  const startPostfix = async (): Promise<void> => {
    writeFileSync(join(queue, 'quick-start'), ''); // removed by each start
    const child = spawn(POSTFIX!, ['-c', conf, 'start-fg'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (postfixOut += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (postfixOut += d.toString()));
    postfix = child;
    await waitPort(smtpPort, timeoutMs, 'postfix', logs);
  };
  const stopPostfix = async (): Promise<void> => {
    const child = postfix;
    postfix = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    spawnSync(POSTFIX!, ['-c', conf, 'stop'], { stdio: 'ignore' });
    const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(t);
  };
  const logs = (): string => `${readLog(dovecotLog)}\n${postfixOut}\n${readLog(maillog)}`;
  const stopAll = async (): Promise<void> => {
    await stopPostfix();
    await stopDovecot();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await startDovecot();
    await startPostfix();
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    imapPort,
    smtpPort,
    mxPort,
    dir,
    users,
    user: (name) => {
      const u = users.find((x) => x.address === `${name}@${MAIL_DOMAIN}`);
      if (!u) throw new Error(`no mail user ${name}`);
      return u;
    },
    kick: (address) => {
      const r = spawnSync('doveadm', ['-c', dovecotConf, 'kick', address], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`doveadm kick failed: ${r.stderr}`);
    },
    stopDovecot,
    startDovecot,
    stopPostfix,
    startPostfix,
    logs,
    imapCommands: (address) => {
      const folder = join(dir, 'rawlog', address);
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((f) => f.endsWith('.in'))
        .sort()
        .flatMap((f) => readLog(join(folder, f)).split(/\r?\n/))
        .filter((l) => l.trim());
    },
    stop: stopAll,
  };
}
