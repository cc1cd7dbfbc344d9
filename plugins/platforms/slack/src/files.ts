/**
 * Files shared with a Slack message: downloaded from `url_private_download` with the bot token
 * (Slack requires `Authorization: Bearer xoxb-…` and the `files:read` scope), capped in size, and
 * sorted for the pipeline — images the model can see into `InboundMessage.images`, everything
 * else (documents, audio, images for a model without vision) into `InboundMessage.files`.
 *
 * The token is only ever sent to Slack's file hosts (`https://*.slack.com`, `*.slack-edge.com`)
 * or to an origin the adapter names (the configured `api_base`, for a stand-in): a file URL in an
 * event pointing elsewhere is not fetched. A file that cannot be fetched becomes a note in the
 * message text instead of failing the message.
 */
import {
  formatUntrustedValue,
  type FetchedAttachments,
  type ImageAttachmentInput,
  type InboundFile,
} from '@hermes/core';
import { z } from 'zod';
import type { SlackFile } from './inbound.js';

/** Image types the daemon accepts for the model (images/ decides from the bytes again). */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** Options of `fetchSlackFiles`. */
export interface FileFetchOptions {
  /** The bot token (xoxb-). */
  token: string;
  /** Origins besides Slack's own file hosts that may receive the token (e.g. `http://127.0.0.1:4000`). */
  extraOrigins: readonly string[];
  /** Largest file taken, bytes. */
  maxBytes: number;
  /** Images go to the model (it has vision); otherwise they are files. */
  imagesToModel: boolean;
  /** Largest image given to the model, bytes (`images.max_bytes`); a larger one is a file. */
  imageMaxBytes?: number;
  /** Per-file download timeout, ms (default 30,000). */
  timeoutMs?: number;
}

/** What the files of one message became. */
export interface FetchedFiles {
  images: ImageAttachmentInput[];
  files: InboundFile[];
  /** One line per file that was not taken (name and why). */
  notes: string[];
}

/** True when `url` may receive the bot token. */
export function isSlackFileUrl(url: string, extraOrigins: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (extraOrigins.includes(u.origin)) return true;
  return u.protocol === 'https:' && /(^|\.)(slack\.com|slack-edge\.com)$/.test(u.hostname);
}

function kindOf(f: SlackFile, mime: string): InboundFile['kind'] {
  if (mime.startsWith('image/')) return 'image';
  if (f.filetype === 'slack_audio' || f.mode === 'voice') return 'voice';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

async function download(url: string, opts: FileFetchOptions): Promise<Buffer | string> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${opts.token}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
  } catch (err) {
    return `download failed (${(err as Error).name === 'TimeoutError' ? 'timed out' : 'network error'})`;
  }
  // without files:read Slack redirects to its sign-in page instead of sending the file
  if (res.status >= 300 && res.status < 400)
    return 'Slack refused the download (is the files:read scope granted?)';
  if (!res.ok) return `download failed (HTTP ${res.status})`;
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > opts.maxBytes) {
    await res.body?.cancel();
    return `larger than ${opts.maxBytes} bytes`;
  }
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length > opts.maxBytes) return `larger than ${opts.maxBytes} bytes`;
  return data;
}

/** Downloads and sorts the files of one message; never throws. */
export async function fetchSlackFiles(
  files: readonly SlackFile[],
  opts: FileFetchOptions,
): Promise<FetchedFiles> {
  const out: FetchedFiles = { images: [], files: [], notes: [] };
  for (const f of files) {
    const name = (f.name || f.title || f.id).slice(0, 200);
    const url = f.url_private_download ?? f.url_private;
    // the name is quoted as untrusted data: it cannot close the note and pose as one of its own
    const skip = (why: string): void =>
      void out.notes.push(`[file ${formatUntrustedValue(name)} not received: ${why}]`);
    if (f.mode === 'tombstone' || f.mode === 'hidden_by_limit') {
      skip('no longer available');
      continue;
    }
    if (!url || !isSlackFileUrl(url, opts.extraOrigins)) {
      skip('no Slack download URL');
      continue;
    }
    if ((f.size ?? 0) > opts.maxBytes) {
      skip(`larger than ${opts.maxBytes} bytes`);
      continue;
    }
    const got = await download(url, opts);
    if (typeof got === 'string') {
      skip(got);
      continue;
    }
    const mime = (f.mimetype ?? 'application/octet-stream').toLowerCase();
    if (opts.imagesToModel && MODEL_IMAGE_TYPES.has(mime) && got.length <= (opts.imageMaxBytes ?? Infinity)) {
      out.images.push({ kind: 'image', data: got.toString('base64'), mime, name });
    } else {
      out.files.push({ name, mime, data: got, kind: kindOf(f, mime) });
    }
  }
  return out;
}

/** What `fetchSlackFilesOfRef` needs of a message (`InboundMessage.attachmentsRef`). */
const FilesRef = z.object({
  /** Whether the message had text (files alone get a stand-in line). */
  hasText: z.boolean(),
  files: z.array(
    z.object({
      id: z.string(),
      name: z.string().optional(),
      title: z.string().optional(),
      mimetype: z.string().optional(),
      filetype: z.string().optional(),
      size: z.number().optional(),
      url_private: z.string().optional(),
      url_private_download: z.string().optional(),
      mode: z.string().optional(),
    }),
  ),
});

/** The reference of a message's shared files (the event's own file records: URLs, no token). */
export function filesRefOf(hasText: boolean, files: readonly SlackFile[]): z.infer<typeof FilesRef> {
  return { hasText, files: [...files] };
}

/**
 * Downloads the files of a reference (`filesRefOf`), read back from the delivery ledger after a
 * restart or given when the message arrived. Never throws: a damaged reference is a note.
 */
export async function fetchSlackFilesOfRef(
  ref: unknown,
  opts: FileFetchOptions,
): Promise<FetchedAttachments> {
  const r = FilesRef.safeParse(ref);
  if (!r.success) return { notes: ['[files not received: their record is damaged]'] };
  const got = await fetchSlackFiles(r.data.files, opts);
  const notes = [...got.notes];
  if (!r.data.hasText && !notes.length && (got.images.length || got.files.length))
    notes.push('(sent files without text)');
  return { images: got.images, files: got.files, notes };
}
