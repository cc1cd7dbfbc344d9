import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesHome } from '../home/home.js';
import { MediaStore } from './media-store.js';
import { userContent, storedImages, attachmentInfos } from './parts.js';
import { ImageAttachmentError, resolveImage, resolveImages } from './resolve.js';
import { TINY_PNG } from './testing.js';

let dir = '';
let store: MediaStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-img-'));
  store = new MediaStore(join(dir, 'media'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const opts = () => ({ store, cwd: dir, maxBytes: 1000 });
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ImageAttachmentError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('resolveImage', () => {
  it('stores a file by content hash (0600, once) and a base64 image, detecting the type', () => {
    writeFileSync(join(dir, 'shot.png'), TINY_PNG);
    const a = resolveImage({ kind: 'image', path: 'shot.png' }, 0, opts());
    expect(a).toMatchObject({ kind: 'image', name: 'shot.png', mime: 'image/png', bytes: TINY_PNG.length });
    const file = store.pathOf(a.sha256, a.mime);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = resolveImage(
      { kind: 'image', data: TINY_PNG.toString('base64'), mime: 'image/jpeg' },
      1,
      opts(),
    );
    expect(b.sha256).toBe(a.sha256);
    expect(b.mime).toBe('image/png'); // the bytes decide, not the client
    expect(b.name).toBe('clipboard.png');
    expect(readdirSync(join(dir, 'media'))).toEqual([`${a.sha256}.png`]);
  });

  it('refuses, naming the attachment: missing file, folder, too big, not an image, bad base64', () => {
    expect(refusal(() => resolveImage({ kind: 'image', path: join(dir, 'nope.png') }, 0, opts()))).toMatch(
      /image 1 "nope.png": cannot read .*no such file/,
    );
    expect(refusal(() => resolveImage({ kind: 'image', path: dir }, 1, opts()))).toMatch(
      /image 2 .*not a regular file/,
    );
    writeFileSync(join(dir, 'big.png'), Buffer.concat([TINY_PNG, Buffer.alloc(2000)]));
    expect(refusal(() => resolveImage({ kind: 'image', path: 'big.png' }, 0, opts()))).toMatch(
      /"big.png".*over the .* limit \(images.max_bytes\)/,
    );
    writeFileSync(join(dir, 'notes.png'), 'just text');
    expect(refusal(() => resolveImage({ kind: 'image', path: 'notes.png' }, 0, opts()))).toMatch(
      /"notes.png": not a PNG, JPEG, GIF or WebP/,
    );
    expect(refusal(() => resolveImage({ kind: 'image', data: '%%%', name: 'paste' }, 2, opts()))).toMatch(
      /image 3 "paste": data is not base64/,
    );
    expect(
      refusal(() => resolveImage({ kind: 'image', data: Buffer.alloc(3000).toString('base64') }, 0, opts())),
    ).toMatch(/over the/);
  });

  it.skipIf(process.getuid?.() === 0)(
    'refuses an unreadable file (skipped as root, who reads every file)',
    () => {
      writeFileSync(join(dir, 'secret.png'), TINY_PNG);
      chmodSync(join(dir, 'secret.png'), 0);
      expect(refusal(() => resolveImage({ kind: 'image', path: 'secret.png' }, 0, opts()))).toMatch(
        /permission denied/,
      );
    },
  );

  it("refuses a path read_file would refuse (the home's key files), and expands ~", () => {
    const home = new HermesHome(join(dir, 'home')).ensure();
    writeFileSync(join(home.root, '.env'), TINY_PNG); // image bytes, in a key file's place
    expect(
      refusal(() => resolveImage({ kind: 'image', path: join(home.root, '.env') }, 0, { ...opts(), home })),
    ).toMatch(/image 1 "\.env": .*holds Hermes's keys or tokens/);
    expect(
      refusal(() => resolveImage({ kind: 'image', path: '~/no-such-hermes-image.png' }, 0, opts())),
    ).toMatch(new RegExp(`cannot read ${homedir()}/no-such-hermes-image\\.png`));
  });

  it('resolves only image attachments and builds the content parts and chips', () => {
    writeFileSync(join(dir, 'a.png'), TINY_PNG);
    const imgs = resolveImages([{ kind: 'file' }, { kind: 'image', path: 'a.png' } as never], opts());
    expect(imgs).toHaveLength(1);
    const parts = userContent('what is it?', imgs, store);
    expect(parts).toEqual([
      { type: 'text', text: 'what is it?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG.toString('base64')}` } },
    ]);
    expect(userContent('plain', [], store)).toBe('plain');
    const json = JSON.stringify(imgs);
    expect(storedImages(json)).toEqual(imgs);
    expect(attachmentInfos(json)).toEqual([
      { kind: 'image', name: 'a.png', mime: 'image/png', bytes: TINY_PNG.length },
    ]);
    expect(attachmentInfos('not json')).toEqual([]);
    expect(
      storedImages(JSON.stringify([{ kind: 'image', name: 'x', sha256: '../etc', mime: 'image/png' }])),
    ).toEqual([]);
  });
});
