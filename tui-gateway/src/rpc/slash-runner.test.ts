import { describe, expect, it } from 'vitest';
import type { Connection, Handler, HandlerRegistry } from './types.js';
import { withSlashRunner } from './slash-runner.js';

/** A registry that keeps what was registered. */
function registry(): HandlerRegistry & { handlers: Map<string, Handler<'slash.exec'>> } {
  const handlers = new Map<string, Handler<'slash.exec'>>();
  return {
    handlers,
    register(method, handler) {
      handlers.set(method, handler as unknown as Handler<'slash.exec'>);
    },
  };
}

const conn = { profile: 'default' } as Connection;

describe('withSlashRunner', () => {
  it("sends the runner's commands (any case) with their arguments to it, the rest to the handler", async () => {
    const rpc = registry();
    const seen: string[] = [];
    withSlashRunner(rpc, 'cron', async (args) => {
      seen.push(args);
      return { output: `cron ${args}`, handled: true };
    }).register('slash.exec', async (p) => ({ output: `inner ${p.command}`, handled: true }));
    const exec = rpc.handlers.get('slash.exec')!;
    expect(await exec({ command: '/cron list' } as never, conn)).toEqual({
      output: 'cron list',
      handled: true,
    });
    expect(await exec({ command: '  /CRON  ' } as never, conn)).toEqual({ output: 'cron ', handled: true });
    expect(await exec({ command: '/help' } as never, conn)).toEqual({ output: 'inner /help', handled: true });
    expect(seen).toEqual(['list', '']);
  });

  it('registers other methods unchanged', () => {
    const rpc = registry();
    const h = (async () => ({})) as never;
    withSlashRunner(rpc, 'cron', async () => ({ output: '', handled: true })).register('session.list', h);
    expect(rpc.handlers.get('session.list')).toBe(h);
  });
});
