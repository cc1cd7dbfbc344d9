/**
 * The daemon-wide status feed end to end: two profiles, a turn of a client attached like the TUI
 * (profile `work`), a Telegram turn waiting for approval (profile `default`, the fake Bot API) and
 * a cron run (profile `work`). `hermes status --json` lists all three with their states, `--tmux`
 * counts them, and each change reaches a `status.subscribe` watcher within 200 ms of the event
 * that caused it (both seen in this process: the client's event, the Bot API call, `cron.changed`).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSessionStatus, WireEvent } from '@hermes/core/protocol';
import { connect, type DaemonClient } from '@hermes/client';
import { startFakeModelServer, type FakeModelServer } from './support/fake-model-server.js';
import { startFakeTelegram, type FakeTelegram, telegramConfigLines } from './support/fake-telegram.js';
import { waitFor } from './support/gateway-process.js';
import { HERMES_BIN, hermesEnv, makeTestHome, runHermes } from './support/hermes-cli.js';
import { execFileSync, spawn } from 'node:child_process';
import { startDaemonWithPlatform, stopDaemon } from './support/platform-daemon.js';
import { CronStore, type CronJob } from '@hermes/core/cron';
import { HermesHome } from '@hermes/core/home';

let model: FakeModelServer;
let tg: FakeTelegram;
let root: string;
const clients: DaemonClient[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'hermes-hub-scratch-'));

/** Every `status.changed` the watcher got, with its arrival time. */
const feed: Array<{ at: number; rows: LiveSessionStatus[] }> = [];

beforeAll(async () => {
  model = await startFakeModelServer();
  tg = await startFakeTelegram();
  root = makeTestHome({
    modelUrl: model.url,
    env: `TELEGRAM_BOT_TOKEN=${tg.token}\n`,
    config: [
      ...telegramConfigLines(tg),
      '    reset: { mode: none }',
      'gateway:',
      '  drain_timeout: 1',
      'terminal:',
      '  sandbox: { platforms: off }',
      'cron:',
      '  tick_interval: 1',
    ].join('\n'),
  });
  const created = await runHermes(root, ['profile', 'create', 'work']);
  expect(created.code, created.stderr).toBe(0);
  writeFileSync(
    join(root, 'profiles', 'work', 'config.yaml'),
    `_config_version: 2\nmodel:\n  provider: custom\n  base_url: ${model.url}\n  default: fake-model\ntimezone: UTC\n`,
  );
  await startDaemonWithPlatform(root, 'telegram');
  const watcher = await connect({ root }, { name: 'watcher', capabilities: { approvals: false } });
  clients.push(watcher);
  watcher.onEvent((e: WireEvent) => {
    if (e.type === 'status.changed') feed.push({ at: Date.now(), rows: e.payload.sessions });
  });
  const first = await watcher.request('status.subscribe', {});
  expect(first.sessions).toEqual([]);
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await model?.close(); // ends the hanging model calls
  await stopDaemon(root);
  await tg?.close();
});

/** Waits for the first feed row after `since` that matches, and returns its arrival time. */
async function feedRow(
  since: number,
  match: (r: LiveSessionStatus) => boolean,
  what: string,
): Promise<number> {
  const hit = await waitFor(
    () => feed.find((f) => f.at >= since && f.rows.some(match)),
    `the status feed to show ${what}`,
    15_000,
  );
  return hit.at;
}

describe('hub: status feed across profiles', () => {
  it('lists a TUI turn, a Telegram approval and a cron run with their states, each within 200 ms', async () => {
    // 1. a client attached like the TUI runs a turn in profile work (the model hangs: it keeps working)
    const tui = await connect({ root }, { name: 'tui', profile: 'work', capabilities: { approvals: true } });
    clients.push(tui);
    const { session } = await tui.request('session.create', { title: 'terminal work' });
    await tui.request('session.attach', { session_id: session.id });
    model.push({ hang: true });
    const started = tui.waitForEvent((e) => e.type === 'turn.start', 10_000).then(() => Date.now());
    await tui.request('prompt.submit', { session_id: session.id, text: 'long job' });
    const tTurn = await started;
    const tFeedTurn = await feedRow(
      tTurn - 1000,
      (r) => r.session_id === session.id && r.state === 'working',
      'the TUI turn working',
    );
    expect(tFeedTurn - tTurn).toBeLessThanOrEqual(200);

    // 2. a Telegram turn in profile default waits for approval of a command
    const junk = join(scratch, 'junk');
    mkdirSync(junk);
    model.push({ toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${junk}` } }] });
    tg.userMessage({ chatId: 111, userId: 111, name: 'Ann', text: 'clean up' });
    const ask = await tg.waitForCall(
      (c) => c.method === 'sendMessage' && c.params.chat_id === '111' && !!c.params.reply_markup,
      'the approval message',
    );
    const tFeedAsk = await feedRow(
      ask.at - 1000,
      (r) => r.source === 'telegram' && r.state === 'approval',
      'the Telegram approval',
    );
    expect(tFeedAsk - ask.at).toBeLessThanOrEqual(200);

    // 3. a cron job of profile work runs (its model call hangs: it keeps working)
    const home = new HermesHome(root, 'work');
    const added = await runHermes(root, [
      '-p',
      'work',
      'cron',
      'add',
      'every 1h',
      'Report',
      '--name',
      'report',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const job = JSON.parse(added.stdout) as CronJob;
    model.push({ hang: true });
    const claimed = tui.waitForEvent(
      (e) => e.type === 'cron.changed' && e.payload.reason === 'claimed' && e.payload.profile === 'work',
      15_000,
    );
    await new CronStore(home).mutate((jobs) => {
      jobs.find((j) => j.id === job.id)!.next_run_at = new Date().toISOString();
    });
    await claimed;
    const tClaimed = Date.now();
    const tFeedCron = await feedRow(
      tClaimed - 1000,
      (r) => r.origin === 'cron' && r.profile === 'work' && r.state === 'working',
      'the cron run working',
    );
    expect(tFeedCron - tClaimed).toBeLessThanOrEqual(200);

    // 4. hermes status --json lists all three, across both profiles
    const st = await runHermes(root, ['status', '--json']);
    expect(st.code, st.stderr).toBe(0);
    const rows = (JSON.parse(st.stdout) as { sessions: LiveSessionStatus[] }).sessions;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          profile: 'work',
          session_id: session.id,
          origin: 'tui',
          state: 'working',
          title: 'terminal work',
        }),
        expect.objectContaining({
          profile: 'default',
          source: 'telegram',
          origin: 'platform',
          state: 'approval',
          command: `rm -rf ${junk}`,
        }),
        expect.objectContaining({ profile: 'work', origin: 'cron', state: 'working', title: 'cron: report' }),
      ]),
    );
    for (const r of rows.filter((x) => x.state === 'working'))
      expect(r.turn_started_at).toEqual(expect.any(Number));
    const text = await runHermes(root, ['status']);
    expect(text.stdout).toMatch(/approval\?.*rm -rf/);
    const line = await runHermes(root, ['status', '--tmux']);
    expect(line.stdout).toBe('⚙2 ⚠1\n');
    expect((await runHermes(root, ['-p', 'work', 'status', '--tmux'])).stdout).toBe('⚙2 ⚠1\n');
    // the same line without Node: the daemon's status-line file through the sh reader
    const sh = execFileSync('sh', [join(dirname(HERMES_BIN), 'hermes-status-line')], {
      env: { PATH: process.env.PATH, HERMES_HOME: root },
    });
    expect(sh.toString()).toBe('⚙2 ⚠1\n');

    // 5. --watch --json prints the snapshot, then a line per change: the TUI turn interrupted
    const watch = spawn(process.execPath, [HERMES_BIN, 'status', '--watch', '--json'], {
      env: hermesEnv(root),
    });
    try {
      let out = '';
      watch.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => out.includes('\n'), 'the first --watch line');
      await tui.request('session.interrupt', { session_id: session.id });
      await waitFor(
        () =>
          out
            .trim()
            .split('\n')
            .slice(1)
            .some((l) =>
              (JSON.parse(l) as { sessions: LiveSessionStatus[] }).sessions.some(
                (r) => r.session_id === session.id && r.state === 'idle',
              ),
            ),
        'a --watch line with the TUI session idle',
      );
    } finally {
      watch.kill('SIGINT');
    }
  });
});
