/**
 * The attachments of a chat message survive a restart of the daemon between the download and
 * the end of the message's turn: a message the first daemon accepted but did not submit is
 * admitted again by the next one with the same image and file, a turn run again gets its image
 * back, a spool removed by hand is named as lost, and a decided message leaves no spool behind.
 * A real SessionDB and stored ledger, in-process agents and the scripted model (with vision).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverMessages } from './pipeline-recovery.js';
import { CUT_DOWNLOAD_TEXT } from './pipeline-spool.js';
import { storedLedger, usePipelineTests } from './pipeline-testing.js';
import type { MessageSource } from './source.js';

const pipes = usePipelineTests({
  model: { whenEmpty: { echo: 'last_user', prefix: 'echo: ' } },
  reset: false,
});

// a 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const alice: MessageSource = { platform: 'memory', chatType: 'dm', chatId: 'dm-alice', userId: 'alice' };

/** A daemon's pipeline on `root` with a stored ledger (a new one per "process"). */
function daemon(root: string) {
  const made = pipes.create({
    root,
    model: { vision: true },
    platform: { allowed_users: ['alice'], footer: false },
    warn: () => {},
    ledger: storedLedger,
    transcript: true,
  });
  made.pipeline.ledger.start();
  return made;
}

/** The content parts of the last user message the model received. */
function lastUserParts(): Array<{ type: string; text?: string; image_url?: { url: string } }> {
  const msgs = pipes.model.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  const content = msgs.filter((m) => m.role === 'user').at(-1)!.content;
  return typeof content === 'string' ? [{ type: 'text', text: content }] : (content as never);
}

/** Accepts a message with an image and a document in a daemon that stops before its turn. */
async function acceptedThenStopped(root: string, lazy: boolean) {
  const first = daemon(root);
  first.pipeline.stopAccepting();
  const attachments = {
    images: [{ kind: 'image' as const, data: PNG.toString('base64'), name: 'dot.png', mime: 'image/png' }],
    files: [
      { name: 'notes.txt', mime: 'text/plain', data: Buffer.from('the notes'), kind: 'document' as const },
    ],
  };
  await first.adapter.receive({
    source: alice,
    text: 'look at these',
    ...(lazy ? { fetchAttachments: () => Promise.resolve(attachments) } : attachments),
  });
  expect(first.adapter.texts('dm-alice')).toEqual([
    'The agent is restarting; it will answer this when it is back.',
  ]);
  const [row] = first.pipeline.ledger.unfinished();
  first.db.close();
  return row!;
}

describe('the inbound spool across a restart', () => {
  it.each([
    ['given with the message', false],
    ['downloaded when asked', true],
  ])('a message accepted, not yet a prompt (attachments %s): admitted again with them', async (_, lazy) => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-spool-'));
    const row = await acceptedThenStopped(root, lazy);
    const spoolDir = join(root, 'media', 'inbound', 'memory', row.id);
    expect(readdirSync(spoolDir).sort()).toEqual(['file-0', 'image-0']);

    const second = daemon(root);
    expect(await recoverMessages(second.pipeline)).toBe(1);
    const parts = lastUserParts();
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(parts[0]!.text).toContain('look at these');
    expect(parts[0]!.text).toContain('"notes.txt"');
    expect(parts[0]!.text).not.toContain('not kept across a restart');
    expect(second.adapter.texts('dm-alice')).toHaveLength(1);
    // the outcome is decided: nothing is kept for a third start
    expect(existsSync(spoolDir)).toBe(false);
    expect(second.db.platforms.getDelivery(row.id)?.state).toBe('sent');
  });

  it('a spooled file removed by hand is named as lost; the rest still comes back', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-spool-'));
    const row = await acceptedThenStopped(root, false);
    rmSync(join(root, 'media', 'inbound', 'memory', row.id, 'file-0'));
    const second = daemon(root);
    await recoverMessages(second.pipeline);
    const parts = lastUserParts();
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[0]!.text).toContain(
      'came with an attachment that was not kept across a restart of the agent: "notes.txt"',
    );
  });

  it('a turn cut by the restart runs again with the image its first run had', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-spool-'));
    const first = daemon(root);
    pipes.model.push({ text: 'first run', delayMs: 30_000 });
    const image = {
      kind: 'image' as const,
      data: PNG.toString('base64'),
      name: 'dot.png',
      mime: 'image/png',
    };
    void first.adapter.receive({ source: alice, text: 'what is this', images: [image] });
    // the turn runs: its prompt and image are recorded before the model answers
    const until = Date.now() + 10_000;
    let row = first.pipeline.ledger.unfinished()[0];
    while (!(row?.state === 'running' && row.inbound?.includes('prompt_images')) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      row = first.pipeline.ledger.unfinished()[0];
    }
    expect(row?.state).toBe('running');
    expect(JSON.parse(row!.inbound!).prompt_images).toEqual([0]);
    // the daemon dies here: nothing of the turn is stored but the user message
    first.db.close();
    await fetch(`${pipes.model.url.replace(/\/v1$/, '')}/__reset`, { method: 'POST' });

    const second = daemon(root);
    expect(await recoverMessages(second.pipeline)).toBe(1);
    const parts = lastUserParts();
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[0]!.text).toBe('what is this');
    expect(second.adapter.texts('dm-alice')).toEqual(['echo: what is this']);
    expect(existsSync(join(root, 'media', 'inbound', 'memory', row!.id))).toBe(false);
  });

  it('a download the restart cut is done again from the adapter reference, or named as not received', async () => {
    for (const canRefetch of [true, false]) {
      const root = mkdtempSync(join(tmpdir(), 'hermes-spool-'));
      const first = daemon(root);
      void first.adapter.receive({
        source: alice,
        text: 'the photo',
        attachmentsRef: { photo: 'file-123' },
        fetchAttachments: () => new Promise(() => {}), // the daemon dies during the download
      });
      const until = Date.now() + 5_000;
      while (!first.pipeline.ledger.unfinished().length && Date.now() < until)
        await new Promise((r) => setTimeout(r, 10));
      const row = first.pipeline.ledger.unfinished()[0]!;
      expect(JSON.parse(row.inbound!)).toMatchObject({ fetching: true, ref: { photo: 'file-123' } });
      first.db.close();

      const second = daemon(root);
      const refs: unknown[] = [];
      if (canRefetch)
        second.adapter.refetchAttachments = (ref) => {
          refs.push(ref);
          return Promise.resolve({
            images: [{ kind: 'image', data: PNG.toString('base64'), name: 'p.png' }],
          });
        };
      expect(await recoverMessages(second.pipeline)).toBe(1);
      const parts = lastUserParts();
      if (canRefetch) {
        expect(refs).toEqual([{ photo: 'file-123' }]);
        expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
        expect(parts[0]!.text).toBe('the photo');
      } else {
        expect(parts.map((p) => p.type)).toEqual(['text']);
        expect(parts[0]!.text).toBe(`the photo\n\n${CUT_DOWNLOAD_TEXT}`);
      }
      expect(second.db.platforms.getDelivery(row.id)?.state).toBe('sent');
    }
  });

  it('a message taken without a turn (a command) leaves no spool behind', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-spool-'));
    const d = daemon(root);
    await d.adapter.receive({
      source: alice,
      text: '/help',
      images: [{ kind: 'image', data: PNG.toString('base64'), name: 'dot.png', mime: 'image/png' }],
    });
    expect(d.adapter.texts('dm-alice').length).toBeGreaterThan(0);
    expect(readdirSync(join(root, 'media', 'inbound', 'memory'))).toEqual([]);
  });

  it('a start removes the spools of messages no longer open', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hermes-spool-'));
    const row = await acceptedThenStopped(root, false);
    const second = daemon(root);
    second.db.platforms.updateDelivery(row.id, { state: 'sent', outcome: 'dropped' });
    expect(await recoverMessages(second.pipeline)).toBe(0);
    expect(readdirSync(join(root, 'media', 'inbound', 'memory'))).toEqual([]);
  });
});
