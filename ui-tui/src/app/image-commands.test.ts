import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandPath, imageCommand, pasteCommand } from './image-commands.js';
import { discard, PendingAttachments, toPromptAttachments } from './pending-attachments.js';

let dir = '';
let notices: Array<[string, string | undefined]> = [];
let host: { attachments: PendingAttachments; notice(t: string, tone?: 'info' | 'warn' | 'error'): void };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tui-img-'));
  notices = [];
  host = { attachments: new PendingAttachments(), notice: (t, tone) => void notices.push([t, tone]) };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('/image and /paste', () => {
  it('/image PATH attaches a file (relative to the folder), once; /image clear drops them', async () => {
    writeFileSync(join(dir, 'shot.png'), 'x'.repeat(2048));
    let changes = 0;
    host.attachments.subscribe(() => changes++);
    await imageCommand('shot.png', host, dir);
    await imageCommand(join(dir, 'shot.png'), host, dir);
    expect(host.attachments.getSnapshot()).toEqual([
      { kind: 'image', path: join(dir, 'shot.png'), name: 'shot.png', bytes: 2048 },
    ]);
    expect(notices[0]).toEqual(['Attached [image shot.png · 2.0 KB] to the next prompt.', undefined]);
    expect(changes).toBe(1);
    expect(toPromptAttachments(host.attachments.getSnapshot())).toEqual([
      { kind: 'image', path: join(dir, 'shot.png'), name: 'shot.png' },
    ]);
    await imageCommand('clear', host, dir);
    expect(host.attachments.size).toBe(0);
    expect(notices.at(-1)![0]).toBe('Dropped 1 attached image.');
  });

  it('/image refuses a missing file, a folder and no argument, saying why', async () => {
    await imageCommand('nope.png', host, dir);
    await imageCommand('.', host, dir);
    await imageCommand('  ', host, dir);
    expect(notices.map((n) => n[0])).toEqual([
      `/image: cannot read ${join(dir, 'nope.png')} (no such file)`,
      `/image: ${dir} is not a file`,
      'Usage: /image PATH (or /image clear)',
    ]);
    expect(host.attachments.size).toBe(0);
  });

  it('/paste keeps the clipboard image in a private temp file, deleted when discarded', async () => {
    const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await pasteCommand(host, async () => ({ ok: true, data, mime: 'image/png', tool: 'wl-paste' }), dir);
    const [img] = host.attachments.getSnapshot();
    expect(img).toMatchObject({ name: 'clipboard.png', bytes: 7, temp: true });
    expect(readFileSync(img!.path)).toEqual(data);
    expect(statSync(img!.path).mode & 0o777).toBe(0o600);
    await discard(host.attachments.take());
    expect(existsSync(img!.path)).toBe(false);
  });

  it('/paste says why there is no image', async () => {
    await pasteCommand(host, async () => ({ ok: false, reason: 'The clipboard holds no image.' }), dir);
    expect(notices).toEqual([['The clipboard holds no image.', 'warn']]);
  });

  it('expands ~ and quotes', () => {
    expect(expandPath('~/a.png', '/w', '/home/u')).toBe('/home/u/a.png');
    expect(expandPath("'my shot.png'", '/w', '/home/u')).toBe('/w/my shot.png');
  });
});
