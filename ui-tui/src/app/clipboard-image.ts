/**
 * Reads an image from the system clipboard with the tool the desktop offers: `wl-paste`
 * (Wayland), `xclip` (X11), `pngpaste` or `osascript` (macOS). Says which tool is missing, or that
 * the clipboard holds no image, instead of failing silently.
 */
import { execFile } from 'node:child_process';

/** What `readClipboardImage` found. */
export type ClipboardImage =
  { ok: true; data: Buffer; mime: string; tool: string } | { ok: false; reason: string };

/** Runs a program; resolves with its stdout bytes, or an error (`code` ENOENT when missing). */
export type RunTool = (cmd: string, args: string[]) => Promise<Buffer>;

/** Longest wait for a clipboard tool, ms. */
export const CLIPBOARD_TIMEOUT_MS = 5_000;
/** Largest clipboard image read, bytes (the daemon caps again with `images.max_bytes`). */
export const CLIPBOARD_MAX_BYTES = 64 * 1024 * 1024;

const runTool: RunTool = (cmd, args) =>
  new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { encoding: 'buffer', timeout: CLIPBOARD_TIMEOUT_MS, maxBuffer: CLIPBOARD_MAX_BYTES },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    );
  });

const missing = (err: unknown): boolean => (err as NodeJS.ErrnoException)?.code === 'ENOENT';
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The first image type a list of clipboard targets offers (png preferred). */
function pickType(targets: string): string | undefined {
  const offered = targets.split(/\s+/).filter(Boolean);
  return IMAGE_TYPES.find((t) => offered.includes(t));
}

async function fromTargets(
  tool: string,
  list: () => Promise<Buffer>,
  read: (mime: string) => Promise<Buffer>,
): Promise<ClipboardImage> {
  const mime = pickType((await list()).toString('utf8'));
  if (!mime) return { ok: false, reason: 'The clipboard holds no image (png, jpeg, gif or webp).' };
  const data = await read(mime);
  if (data.length === 0) return { ok: false, reason: 'The clipboard image is empty.' };
  return { ok: true, data, mime, tool };
}

/** `«data PNGf89504E47…»` (osascript's answer) → the bytes. */
export function parseOsascriptData(out: string): Buffer | undefined {
  const m = /«data PNGf([0-9A-Fa-f]+)»/.exec(out);
  return m ? Buffer.from(m[1]!, 'hex') : undefined;
}

/**
 * The clipboard's image, or why there is none. Never throws.
 * @param env decides the tool: `WAYLAND_DISPLAY` → wl-paste, `DISPLAY` → xclip; macOS by platform.
 */
export async function readClipboardImage(
  opts: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; run?: RunTool } = {},
): Promise<ClipboardImage> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const run = opts.run ?? runTool;
  const attempts: Array<{ tool: string; go: () => Promise<ClipboardImage> }> = [];
  if (platform === 'darwin') {
    attempts.push({
      tool: 'pngpaste',
      go: async () => ({ ok: true, data: await run('pngpaste', ['-']), mime: 'image/png', tool: 'pngpaste' }),
    });
    attempts.push({
      tool: 'osascript',
      go: async () => {
        const out = await run('osascript', ['-e', 'the clipboard as «class PNGf»']).catch(() =>
          Buffer.alloc(0),
        );
        const data = parseOsascriptData(out.toString('utf8'));
        return data
          ? { ok: true, data, mime: 'image/png', tool: 'osascript' }
          : { ok: false, reason: 'The clipboard holds no image.' };
      },
    });
  } else {
    if (env.WAYLAND_DISPLAY)
      attempts.push({
        tool: 'wl-paste',
        go: () =>
          fromTargets(
            'wl-paste',
            () => run('wl-paste', ['--list-types']),
            (mime) => run('wl-paste', ['--no-newline', '--type', mime]),
          ),
      });
    if (env.DISPLAY)
      attempts.push({
        tool: 'xclip',
        go: () =>
          fromTargets(
            'xclip',
            () => run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o']),
            (mime) => run('xclip', ['-selection', 'clipboard', '-t', mime, '-o']),
          ),
      });
  }
  if (attempts.length === 0)
    return {
      ok: false,
      reason:
        'No clipboard to read here (no WAYLAND_DISPLAY or DISPLAY, e.g. over SSH): save the image and use /image PATH.',
    };
  const missingTools: string[] = [];
  for (const a of attempts) {
    try {
      return await a.go();
    } catch (err) {
      if (missing(err)) {
        missingTools.push(a.tool);
        continue;
      }
      return {
        ok: false,
        reason: `${a.tool} could not read the clipboard: ${(err as Error).message.split('\n')[0]}`,
      };
    }
  }
  const install =
    platform === 'darwin' ? 'brew install pngpaste' : 'install wl-clipboard (Wayland) or xclip (X11)';
  return {
    ok: false,
    reason: `No clipboard tool found (${missingTools.join(', ')} missing): ${install}, or use /image PATH.`,
  };
}
