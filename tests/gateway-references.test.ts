/**
 * `@` references through a real daemon (run `npm run build` first): `files.complete` answers from
 * the session folder's listing (ignored files left out); `prompt.submit` attachments reach the
 * model as fenced content after the typed text and are stored with the message; the size cap
 * cuts with a note; a reference that cannot be attached refuses the prompt (-32602) and nothing
 * runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcCallError } from '@hermes/client';
import { RpcErrorCode, splitAttachedText } from '@hermes/core/constants';
import { waitFor } from './support/gateway-process.js';
import { is, useGateway, writeConfig } from './support/gateway-session-kit.js';

const gw = useGateway('hermes-refs-', (root, url) =>
  writeConfig(root, url, 'references:\n  max_file_bytes: 2000\n  max_total_bytes: 3000\n'),
);
let project: string;
const put = (rel: string, text: string): void => {
  mkdirSync(dirname(join(project, rel)), { recursive: true });
  writeFileSync(join(project, rel), text);
};
const lastUser = (body: unknown): string => {
  const msgs = (body as { messages: Array<{ role: string; content: string }> }).messages;
  return msgs.filter((m) => m.role === 'user').pop()!.content;
};

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'hermes-refs-gw-'));
  put('src/app.ts', 'export const GW_MARKER = 1;\n');
  put('src/big.txt', 'b'.repeat(5000));
  put('build/out.js', 'IGNORED');
  put('.gitignore', 'build/\n');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('@ references through the daemon', () => {
  it('files.complete ranks the folder’s files without ignored ones, answering before the listing is done', async () => {
    const { client } = gw;
    const { session } = await client.c.request('session.create', { cwd: project });
    const first = await client.c.request('files.complete', { session_id: session.id, query: 'app' });
    expect(first.indexed).toBeGreaterThanOrEqual(0); // answered at once, maybe from an empty listing
    const ready = await waitFor(async () => {
      const r = await client.c.request('files.complete', { session_id: session.id, query: 'app' });
      return r.ready ? r : undefined;
    }, 'the listing');
    expect(ready.items[0]).toEqual({ path: 'src/app.ts', kind: 'file', bytes: 28 });
    const all = await client.c.request('files.complete', { session_id: session.id, query: '', limit: 50 });
    expect(all.items.map((i) => i.path)).not.toContain('build/out.js');
    expect(all.items.map((i) => i.path)).toContain('src/');
  });

  it('attachments reach the model after the typed text, capped, and are stored with the message', async () => {
    const { client, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: project });
    await client.c.request('session.attach', { session_id: session.id });
    model.push({ text: 'seen' });
    const before = model.requests.length;
    await client.c.request('prompt.submit', {
      session_id: session.id,
      text: 'compare @src/app.ts with @src/big.txt',
      attachments: [
        { kind: 'file', path: 'src/app.ts' },
        { kind: 'file', path: 'src/big.txt' },
      ],
    });
    await client.until(is('turn.end', session.id), 'the turn ends');
    const sent = lastUser(model.requests[before]!.body);
    expect(sent.startsWith('compare @src/app.ts with @src/big.txt\n\n<attached-context>\n')).toBe(true);
    expect(sent).toContain('export const GW_MARKER = 1;');
    expect(sent).toContain('truncated: showing the first 2,000 of 5,000 bytes (references.max_file_bytes)');
    const { messages } = await client.c.request('session.history', { session_id: session.id });
    const user = messages.find((m) => m.role === 'user')!;
    expect(splitAttachedText(user.content!)).toEqual({
      text: 'compare @src/app.ts with @src/big.txt',
      chips: [
        { kind: 'file', ref: 'src/app.ts', bytes: 28 },
        { kind: 'file', ref: 'src/big.txt', bytes: 2000, truncated: true },
      ],
    });
  });

  it('a reference that cannot be attached refuses the prompt: -32602 naming it, no turn', async () => {
    const { client, model } = gw;
    const { session } = await client.c.request('session.create', { cwd: project });
    await client.c.request('session.attach', { session_id: session.id });
    const before = model.requests.length;
    for (const [path, why] of [
      ['src/missing.ts', 'no such file or folder'],
      ['../../etc/passwd', "outside the session's folder"],
    ] as const) {
      const err = await client.c
        .request('prompt.submit', {
          session_id: session.id,
          text: `read @${path}`,
          attachments: [{ kind: 'file', path }],
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(RpcCallError);
      expect((err as RpcCallError).code).toBe(RpcErrorCode.InvalidParams);
      expect((err as RpcCallError).message).toContain(`cannot attach @${path}: `);
      expect((err as RpcCallError).message).toContain(why);
    }
    expect(client.of(session.id).filter((e) => e.type === 'turn.start')).toEqual([]);
    expect(model.requests.length).toBe(before);
  });
});
