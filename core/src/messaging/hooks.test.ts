import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookRegistry } from './hooks.js';

function hook(dir: string, name: string, yaml: string, js: string): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'HOOK.yaml'), yaml);
  writeFileSync(join(dir, name, 'handler.js'), js);
}

describe('HookRegistry', () => {
  it('loads HOOK.yaml + handler.js, matches events and prefixes, survives failures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-hooks-'));
    const out = join(dir, 'out.txt');
    hook(
      dir,
      'a-writer',
      `name: writer\nevents: [gateway:startup, "command:*"]\n`,
      `import { appendFileSync } from 'node:fs';\nexport default (e, p) => appendFileSync(${JSON.stringify(out)}, e + ' ' + (p.args ?? '') + '\\n');\n`,
    );
    hook(dir, 'b-thrower', 'events: ["*"]\n', 'export function handle() { throw new Error("nope"); }\n');
    hook(dir, 'c-off', 'events: ["*"]\nenabled: false\n', 'export default () => {};\n');
    hook(dir, 'd-broken', 'events: [', 'export default () => {};\n');
    hook(dir, 'e-noexport', 'events: ["*"]\n', 'export const x = 1;\n');
    const logs: string[] = [];
    const reg = new HookRegistry((l) => logs.push(l));
    expect(await reg.discover(dir)).toBe(2);
    expect(reg.list().map((h) => h.name)).toEqual(['writer', 'b-thrower']);
    await reg.emit('gateway:startup');
    await reg.emit('command:new', { args: 'x' });
    await reg.emit('agent:end');
    expect(readFileSync(out, 'utf8')).toBe('gateway:startup \ncommand:new x\n');
    expect(logs.filter((l) => l.startsWith('hook b-thrower failed'))).toHaveLength(3);
    expect(logs.some((l) => l.startsWith('hook d-broken not loaded'))).toBe(true);
    expect(logs.some((l) => l.startsWith('hook e-noexport not loaded'))).toBe(true);
  });

  it('a missing folder loads nothing', async () => {
    expect(await new HookRegistry().discover('/nonexistent/hooks')).toBe(0);
  });
});
