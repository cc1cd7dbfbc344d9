/**
 * Files and long replies through the pipeline: received files saved under the session's media
 * folder and named in the turn's text; images the model cannot see saved as files; a long reply
 * sent as a file where the platform takes uploads (split elsewhere); attachments of a message
 * replayed after a restart named as lost. Against the scripted model server and a real SessionDB.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeliveryRecord } from './delivery-ledger.js';
import { FILES_NOTICE, type Transcriber } from './inbound-files.js';
import { STREAMED_AS_FILE_TEXT } from './long-reply.js';
import { usePipelineTests } from './pipeline-testing.js';
import type { PlatformEntry } from './registry.js';
import type { MessageSource } from './source.js';
import type { MemoryAdapter, Sent } from './testing.js';

const pipes = usePipelineTests();

// a 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function setup(
  o: {
    platform?: Record<string, unknown>;
    vision?: boolean;
    caps?: ConstructorParameters<typeof MemoryAdapter>[1];
    entry?: Partial<PlatformEntry>;
    transcribe?: Transcriber;
    imagesMaxBytes?: number;
  } = {},
) {
  return pipes.create({
    prefix: 'hermes-pfiles-',
    ...(o.vision !== undefined ? { model: { vision: o.vision } } : {}),
    platform: { allowed_users: ['alice'], ...o.platform },
    ...(o.imagesMaxBytes ? { config: { images: { max_bytes: o.imagesMaxBytes } } } : {}),
    caps: { uploads: true, ...o.caps },
    ...(o.entry ? { entry: o.entry } : {}),
    ...(o.transcribe ? { transcribe: o.transcribe } : {}),
  });
}

const dm: MessageSource = {
  platform: 'memory',
  chatType: 'dm',
  chatId: 'dm-alice',
  userId: 'alice',
  userName: 'alice',
};

/** The text of the last user message the model received. */
function lastUserContent(): unknown {
  const req = pipes.model.requests.at(-1)!;
  const msgs = (req.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return msgs.filter((m) => m.role === 'user').at(-1)!.content;
}

describe('files in the pipeline', () => {
  it('saves a document in the session folder and names it in the turn as untrusted data', async () => {
    const { adapter, store, home } = setup();
    pipes.model.push({ text: 'Got it.' });
    await adapter.receive({
      source: dm,
      text: 'please summarise',
      files: [
        {
          name: '../../Q3 report.pdf',
          mime: 'application/pdf',
          data: Buffer.from('%PDF-1.4 hello'),
          kind: 'document',
        },
      ],
    });
    expect(adapter.texts('dm-alice')).toEqual(['Got it.']);
    const sessionId = store.get('agent:main:memory:dm:dm-alice')!.session_id;
    const saved = join(home.sessionMediaDir(sessionId), 'Q3_report.pdf');
    expect(readFileSync(saved, 'utf8')).toBe('%PDF-1.4 hello');
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    const text = String(lastUserContent());
    expect(text.startsWith('please summarise\n\n')).toBe(true);
    expect(text).toContain(FILES_NOTICE);
    expect(text).toContain(
      `- file "../../Q3 report.pdf" · type "application/pdf" · 14 bytes · saved at ${JSON.stringify(saved)}`,
    );
  });

  it('takes a message with only a voice note, noted as not transcribed; a file over the cap is named, not saved', async () => {
    const { adapter } = setup({ platform: { max_file_bytes: 100 } });
    pipes.model.push({ text: 'Heard.' });
    await adapter.receive({
      source: dm,
      text: '',
      files: [
        { name: 'voice.ogg', mime: 'audio/ogg', data: Buffer.from('OggS...'), kind: 'voice' },
        { name: 'huge.zip', data: Buffer.alloc(200) },
      ],
    });
    expect(adapter.texts('dm-alice')).toEqual(['Heard.']);
    const text = String(lastUserContent());
    expect(text.startsWith(FILES_NOTICE)).toBe(true);
    expect(text).toContain('voice note, not transcribed (no speech-to-text provider is configured)');
    expect(text).toContain(
      'not saved: 200 bytes is over the 100 bytes limit (platforms.memory.max_file_bytes)',
    );
  });

  it('puts the transcript of a configured speech-to-text hook where the note would be', async () => {
    const heard: string[] = [];
    const { adapter } = setup({
      transcribe: async (f) => {
        heard.push(readFileSync(f.path, 'utf8'));
        return 'please call me back';
      },
    });
    pipes.model.push({ text: 'Will do.' });
    await adapter.receive({
      source: dm,
      text: '',
      files: [{ name: 'voice.ogg', mime: 'audio/ogg', data: Buffer.from('OggS-bytes'), kind: 'voice' }],
    });
    expect(heard).toEqual(['OggS-bytes']);
    const text = String(lastUserContent());
    expect(text).toContain('transcript: "please call me back"');
    expect(text).not.toContain('not transcribed');
  });

  it('saves images as files with a note when the model has no vision, and sends them as image parts when it has', async () => {
    const blind = setup({ vision: false });
    pipes.model.push({ text: 'A file.' });
    await blind.adapter.receive({
      source: dm,
      text: 'what is this?',
      images: [{ kind: 'image', data: PNG.toString('base64'), name: 'photo.png' }],
    });
    expect(blind.adapter.texts('dm-alice')).toEqual(['A file.']);
    const text = lastUserContent();
    expect(typeof text).toBe('string');
    expect(text).toContain('- image "photo.png"');
    expect(text).toContain('the model cannot see images: saved as a file only');

    const seeing = setup({ vision: true });
    pipes.model.push({ text: 'A pixel.' });
    await seeing.adapter.receive({
      source: dm,
      text: 'what is this?',
      images: [{ kind: 'image', data: PNG.toString('base64'), name: 'photo.png' }],
    });
    expect(seeing.adapter.texts('dm-alice')).toEqual(['A pixel.']);
    const parts = lastUserContent() as Array<{ type: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
  });

  it('an "image" that is not one, or is over images.max_bytes, is saved as a file; the turn is answered', async () => {
    const seeing = setup({ vision: true, imagesMaxBytes: 1024 });
    pipes.model.push({ text: 'Read it.' });
    const big = Buffer.concat([PNG, Buffer.alloc(2048)]);
    await seeing.adapter.receive({
      source: dm,
      text: 'look',
      images: [
        {
          kind: 'image',
          data: Buffer.from('%PDF-1.4 not an image').toString('base64'),
          name: 'photo.png',
          mime: 'image/png',
        },
        { kind: 'image', data: big.toString('base64'), name: 'big.png', mime: 'image/png' },
        { kind: 'image', data: PNG.toString('base64'), name: 'dot.png', mime: 'image/png' },
      ],
    });
    expect(seeing.adapter.texts('dm-alice')).toEqual(['Read it.']);
    const parts = lastUserContent() as Array<{ type: string; text?: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[0]!.text).toContain('- file "photo.png" · type "image/png"');
    expect(parts[0]!.text).toContain('- file "big.png"');
    expect(parts[0]!.text).not.toContain('dot.png');
  });

  it('names the attachments of a message replayed after a restart as lost', async () => {
    const { adapter, pipeline } = setup();
    pipes.model.push({ text: 'Replayed.' });
    const inbound = JSON.stringify({
      text: 'see attached',
      source: { platform: 'memory', chatType: 'dm', chatId: 'dm-alice', userId: 'alice' },
      attachments: [{ name: 'a.pdf', bytes: 10, kind: 'document' }],
    });
    pipeline.ledger.accept({
      id: 'in-replay',
      chatId: 'dm-alice',
      send: {},
      key: 'agent:main:memory:dm:dm-alice',
      inbound,
    });
    expect(await pipeline.readmit(pipeline.ledger.get('in-replay') as DeliveryRecord)).toBe(true);
    expect(adapter.texts('dm-alice')).toEqual(['Replayed.']);
    expect(String(lastUserContent())).toBe(
      'see attached\n\n(This message came with an attachment that was not kept across a restart of the agent: "a.pdf" (10 bytes). Ask the sender to send it again if needed.)',
    );
  });
});

describe('long replies', () => {
  const long = `Title line\n${'word '.repeat(60)}`;
  const files = (a: MemoryAdapter) =>
    a.sent.filter((s): s is Extract<Sent, { op: 'file' }> => s.op === 'file');

  it('go out as a file with a summary caption above the platform threshold', async () => {
    const { adapter } = setup({ entry: { longReplyAsFileAbove: 100 } });
    pipes.model.push({ text: long });
    await adapter.receive({ source: dm, text: 'write a lot' });
    expect(adapter.texts('dm-alice')).toEqual([]);
    const [f] = files(adapter);
    expect(f!.name).toBe('reply.md');
    expect(f!.data.toString('utf8')).toBe(long);
    expect(f!.caption).toBe(
      `Long reply (${long.length} characters), attached as reply.md. It begins: Title line`,
    );
    pipes.model.push({ text: 'short' });
    await adapter.receive({ source: dm, text: 'now briefly' });
    expect(adapter.texts('dm-alice')).toEqual(['short']);
  });

  it('are split where the platform has no upload, or the config sets 0', async () => {
    const noUpload = setup({ entry: { longReplyAsFileAbove: 100 }, caps: { uploads: false, max: 200 } });
    pipes.model.push({ text: long });
    await noUpload.adapter.receive({ source: dm, text: 'write a lot' });
    expect(noUpload.adapter.texts('dm-alice').join('').replace(/\s/g, '')).toBe(long.replace(/\s/g, ''));
    expect(noUpload.adapter.texts('dm-alice').length).toBeGreaterThan(1);

    const off = setup({
      entry: { longReplyAsFileAbove: 100 },
      platform: { long_reply_as_file_above: 0 },
      caps: { max: 200 },
    });
    pipes.model.push({ text: long });
    await off.adapter.receive({ source: dm, text: 'write a lot' });
    expect(files(off.adapter)).toHaveLength(0);
    expect(off.adapter.texts('dm-alice').length).toBeGreaterThan(1);
  });

  it('replace a streamed message by a short line when the reply becomes a file', async () => {
    const { adapter } = setup({
      entry: { longReplyAsFileAbove: 100 },
      caps: { edit: true },
      platform: { edit_interval_ms: 100 },
    });
    pipes.model.push({ text: long, chunkSize: 40, delayMs: 40 });
    await adapter.receive({ source: dm, text: 'write a lot' });
    const f = await adapter.waitFor((s) => s.op === 'file');
    expect(f).toBeDefined();
    const last = adapter.sent.filter((s) => s.op === 'edit' || s.op === 'send').at(-1) as { text: string };
    expect(last.text).toBe(STREAMED_AS_FILE_TEXT);
  });
});
