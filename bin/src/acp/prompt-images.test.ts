import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageAttachments, INLINE_IMAGE_MAX_CHARS, profileTakesImages } from './prompt-images.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-img-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ACP prompt images', () => {
  it('sends image blocks inline, a huge one as a private temp file removed by cleanup', async () => {
    const big = Buffer.alloc(Math.ceil((INLINE_IMAGE_MAX_CHARS * 3) / 4) + 10, 7).toString('base64');
    const r = await imageAttachments(
      [
        { type: 'text', text: 'look' },
        { type: 'image', data: 'iVBOR', mimeType: 'image/png', uri: 'file:///w/shot.png' },
        { type: 'image', data: big, mimeType: 'image/png' },
      ],
      dir,
    );
    expect(r.attachments[0]).toEqual({ kind: 'image', data: 'iVBOR', mime: 'image/png', name: 'shot.png' });
    const second = r.attachments[1] as { path: string; name: string };
    expect(second.name).toBe('image-2');
    expect(statSync(second.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(second.path).toString('base64')).toBe(big);
    await r.cleanup();
    expect(existsSync(second.path)).toBe(false);
  });

  it('advertises images from model.vision, else the known vision models; false when unsure', async () => {
    const ask = (value: unknown) => ({ request: async () => ({ value }) }) as never;
    expect(await profileTakesImages(ask({ default: 'gpt-4o', vision: 'auto' }))).toBe(true);
    expect(await profileTakesImages(ask({ default: 'llama3.1:8b', vision: 'auto' }))).toBe(false);
    expect(await profileTakesImages(ask({ default: 'llama3.1:8b', vision: true }))).toBe(true);
    expect(await profileTakesImages(ask({ default: 'gpt-4o', vision: false }))).toBe(false);
    const failing = { request: async () => Promise.reject(new Error('gone')) } as never;
    expect(await profileTakesImages(failing)).toBe(false);
  });
});
