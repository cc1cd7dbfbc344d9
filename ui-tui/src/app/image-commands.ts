/**
 * `/image PATH` (attach an image file to the next prompt), `/image clear` (drop the attached
 * ones) and `/paste` / Ctrl+V (attach the clipboard's image). The file is only looked at here
 * (exists, is a file); the daemon reads it and checks type and size when the prompt is sent.
 */
import { randomBytes } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { attachmentLabel } from '@hermes/core/constants';
import { readClipboardImage, type ClipboardImage } from './clipboard-image.js';
import { MAX_PENDING_IMAGES, type PendingAttachments, type PendingImage } from './pending-attachments.js';

/** What the image commands need from the controller. */
export interface ImageCommandHost {
  readonly attachments: PendingAttachments;
  notice(text: string, tone?: 'info' | 'warn' | 'error'): void;
}

/** `~/x` and relative paths as an absolute path (relative to the TUI's folder). */
export function expandPath(p: string, cwd = process.cwd(), home = homedir()): string {
  const unquoted = p.replace(/^(['"])(.*)\1$/, '$2');
  if (unquoted === '~' || unquoted.startsWith('~/')) return join(home, unquoted.slice(1));
  return resolve(cwd, unquoted);
}

function added(host: ImageCommandHost, img: PendingImage): void {
  if (!host.attachments.add(img)) {
    host.notice(`At most ${MAX_PENDING_IMAGES} images per prompt.`, 'warn');
    return;
  }
  const n = host.attachments.size;
  host.notice(`Attached ${attachmentLabel(img)} to the next prompt${n > 1 ? ` (${n} images)` : ''}.`);
}

/** `/image ARGS`: attach a file, or `clear`. */
export async function imageCommand(args: string, host: ImageCommandHost, cwd = process.cwd()): Promise<void> {
  const arg = args.trim();
  if (!arg) return host.notice('Usage: /image PATH (or /image clear)', 'warn');
  if (arg === 'clear') {
    const n = host.attachments.clear();
    return host.notice(n ? `Dropped ${n} attached image${n === 1 ? '' : 's'}.` : 'No images attached.');
  }
  const path = expandPath(arg, cwd);
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) return host.notice(`/image: ${path} is not a file`, 'error');
    size = st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return host.notice(`/image: cannot read ${path} (${code === 'ENOENT' ? 'no such file' : code})`, 'error');
  }
  added(host, { kind: 'image', path, name: basename(path), bytes: size });
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * `/paste` and Ctrl+V: the clipboard's image, saved to a private temporary file (0600, deleted
 * once sent), attached as `clipboard.<ext>`; or a notice saying why there is none.
 */
export async function pasteCommand(
  host: ImageCommandHost,
  read: () => Promise<ClipboardImage> = () => readClipboardImage(),
  dir = tmpdir(),
): Promise<void> {
  const got = await read();
  if (!got.ok) return host.notice(got.reason, 'warn');
  const ext = EXT[got.mime] ?? 'png';
  const path = join(dir, `hermes-paste-${randomBytes(6).toString('hex')}.${ext}`);
  try {
    await writeFile(path, got.data, { mode: 0o600 });
  } catch (err) {
    return host.notice(`Cannot keep the clipboard image: ${(err as Error).message}`, 'error');
  }
  added(host, { kind: 'image', path, name: `clipboard.${ext}`, bytes: got.data.length, temp: true });
}
