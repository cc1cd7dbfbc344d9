import { describe, expect, it } from 'vitest';
import { parseOsascriptData, readClipboardImage, type RunTool } from './clipboard-image.js';

const enoent = (): never => {
  throw Object.assign(new Error('spawn ENOENT'), { code: 'ENOENT' });
};
/** A fake set of tools: answers by command line; unknown programs are missing. */
function tools(answers: Record<string, Buffer | string>): { run: RunTool; calls: string[] } {
  const calls: string[] = [];
  const run: RunTool = async (cmd, args) => {
    const line = [cmd, ...args].join(' ');
    calls.push(line);
    const a = answers[line];
    if (a === undefined) return enoent();
    return Buffer.isBuffer(a) ? a : Buffer.from(a);
  };
  return { run, calls };
}
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('readClipboardImage', () => {
  it('reads the png offered on Wayland with wl-paste', async () => {
    const t = tools({
      'wl-paste --list-types': 'text/plain\nimage/png\n',
      'wl-paste --no-newline --type image/png': PNG,
    });
    const r = await readClipboardImage({
      env: { WAYLAND_DISPLAY: 'wayland-0' },
      platform: 'linux',
      run: t.run,
    });
    expect(r).toEqual({ ok: true, data: PNG, mime: 'image/png', tool: 'wl-paste' });
  });

  it('falls back to xclip on X11 when wl-paste is missing', async () => {
    const t = tools({
      'xclip -selection clipboard -t TARGETS -o': 'TARGETS\nimage/jpeg\n',
      'xclip -selection clipboard -t image/jpeg -o': PNG,
    });
    const r = await readClipboardImage({
      env: { WAYLAND_DISPLAY: 'w', DISPLAY: ':0' },
      platform: 'linux',
      run: t.run,
    });
    expect(r).toMatchObject({ ok: true, mime: 'image/jpeg', tool: 'xclip' });
  });

  it('says when the clipboard holds no image', async () => {
    const t = tools({ 'xclip -selection clipboard -t TARGETS -o': 'UTF8_STRING\ntext/plain\n' });
    const r = await readClipboardImage({ env: { DISPLAY: ':0' }, platform: 'linux', run: t.run });
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/holds no image/) });
  });

  it('names the missing tools and what to install, and the case of no display at all', async () => {
    const r = await readClipboardImage({ env: { DISPLAY: ':0' }, platform: 'linux', run: tools({}).run });
    expect(r).toEqual({
      ok: false,
      reason: expect.stringMatching(/No clipboard tool found \(xclip missing\).*xclip/),
    });
    const none = await readClipboardImage({ env: {}, platform: 'linux', run: tools({}).run });
    expect(none).toEqual({
      ok: false,
      reason: expect.stringMatching(/No clipboard to read here.*\/image PATH/),
    });
  });

  it('reads macOS clipboards with pngpaste, else osascript', async () => {
    const mac = await readClipboardImage({
      platform: 'darwin',
      env: {},
      run: tools({ 'pngpaste -': PNG }).run,
    });
    expect(mac).toMatchObject({ ok: true, tool: 'pngpaste' });
    const osa = tools({ 'osascript -e the clipboard as «class PNGf»': '«data PNGf89504E47»' });
    expect(await readClipboardImage({ platform: 'darwin', env: {}, run: osa.run })).toMatchObject({
      ok: true,
      data: PNG,
      tool: 'osascript',
    });
    expect(parseOsascriptData('nothing')).toBeUndefined();
  });
});
