import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DiscoveryError,
  endpointFromDiscovery,
  isDaemonAlive,
  readDiscovery,
  readDiscoverySync,
} from './discovery.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hermes-disc-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('readDiscovery', () => {
  it('returns null when no daemon wrote the file', async () => {
    expect(await readDiscovery(root)).toBeNull();
  });

  it('reads a valid file and builds a loopback endpoint', async () => {
    const d = { pid: 123, port: 4567, token: 'tok', version: '0.1.0', epoch: 'e1' };
    await writeFile(join(root, 'tui-gateway.json'), JSON.stringify(d));
    const got = await readDiscovery(root);
    expect(got).toEqual(d);
    expect(endpointFromDiscovery(got!)).toEqual({ url: 'ws://127.0.0.1:4567', token: 'tok' });
  });

  it('names the bad field of a malformed file', async () => {
    await writeFile(join(root, 'tui-gateway.json'), JSON.stringify({ pid: 1, port: 'x', token: 't' }));
    await expect(readDiscovery(root)).rejects.toThrow(/"port" must be a positive integer/);
    await writeFile(join(root, 'tui-gateway.json'), '{nope');
    await expect(readDiscovery(root)).rejects.toBeInstanceOf(DiscoveryError);
    expect(() => readDiscoverySync(root)).toThrow(DiscoveryError);
  });

  it('keeps the host and start time the daemon recorded; the endpoint uses the host', async () => {
    const d = { pid: 9, port: 80, token: 't', version: 'v', epoch: 'e', host: '::1', proc_start: '77' };
    // a field the client does not know is dropped
    await writeFile(join(root, 'tui-gateway.json'), JSON.stringify({ ...d, extra: 1 }));
    const got = readDiscoverySync(root);
    expect(got).toEqual(d);
    expect(endpointFromDiscovery(got!).url).toBe('ws://[::1]:80');
  });
});

describe('isDaemonAlive', () => {
  it('tells a reused pid from the daemon by its recorded start time', () => {
    expect(isDaemonAlive({ pid: process.pid })).toBe(true);
    expect(isDaemonAlive({ pid: process.pid, proc_start: 'not-my-start-time' })).toBe(false);
    expect(isDaemonAlive({ pid: 2 ** 22 + 12345 })).toBe(false);
  });
});
