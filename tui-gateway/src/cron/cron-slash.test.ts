/**
 * `withCronSlash` sends to cron exactly the `slash.exec` lines whose command the slash-command
 * table gives cron's runner (`/cron`, any case); every other line reaches the session layer.
 */
import { describe, expect, it } from 'vitest';
import type { MethodResult } from '@hermes/core/protocol';
import type { Connection, Handler, HandlerRegistry } from '../rpc/types.js';
import type { CronService } from './cron-service.js';
import { withCronSlash } from './index.js';

/** A cron service whose every use throws a marker, so a line that reached cron rejects with it. */
const service = {
  context: () => {
    throw new Error('reached cron');
  },
} as unknown as CronService;

function route(command: string): Promise<MethodResult<'slash.exec'>> {
  let registered: Handler<'slash.exec'> | undefined;
  const rpc = {
    register: (_method: string, h: unknown) => void (registered = h as Handler<'slash.exec'>),
  } as unknown as HandlerRegistry;
  const inner: Handler<'slash.exec'> = async () => ({ output: 'session layer', handled: true });
  withCronSlash(rpc, service).register('slash.exec', inner);
  return Promise.resolve(
    registered!({ session_id: 's1', command }, { profile: 'default' } as Connection),
  ) as Promise<MethodResult<'slash.exec'>>;
}

describe('withCronSlash', () => {
  it.each(['/cron', '/cron list', '  /CRON pause abc ', '/cron\trun x'])('%j goes to cron', async (line) => {
    await expect(route(line)).rejects.toThrow('reached cron');
  });

  it.each(['/cronx', '/help', '/status', 'cron list', '/crons'])(
    '%j goes to the session layer',
    async (line) => {
      expect((await route(line)).output).toBe('session layer');
    },
  );
});
