import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonKeeper, DaemonStoppedError } from '../client/daemon-keeper.js';
import { FakeClient } from '../testing/fake-client.js';
import { keys, renderInk } from '../testing/ink.js';
import { App } from './App.js';
import { SessionController } from './controller.js';

const controllers: SessionController[] = [];
afterEach(() => {
  cleanup();
  for (const c of controllers.splice(0)) c.dispose();
});

describe('App after a deliberate daemon stop', () => {
  it('r on an empty composer starts the daemon; r after typed text is text', async () => {
    let starts = 0;
    // every start fails: the keeper stays restartable, so each r could start one
    const keeper = new DaemonKeeper({
      look: () => Promise.resolve({ state: 'absent' }),
      start: () => {
        starts++;
        return Promise.reject(new Error('port in use'));
      },
    });
    const client = new FakeClient();
    const controller = new SessionController({ client, cwd: '/work', throttleMs: 0, daemon: keeper });
    controllers.push(controller);
    const r = await renderInk(
      <App controller={controller} writeRaw={() => {}} probeLocal={async () => []} />,
    );
    await controller.start({ mode: 'continue' });
    await r.waitFor('● connected');
    await expect(keeper.endpoint()).rejects.toBeInstanceOf(DaemonStoppedError);
    await r.waitFor('Daemon stopped — press r (on an empty composer) to start it again.');
    client.setState('reconnecting');
    await r.waitFor('○ daemon stopped (r starts it)');

    await r.press('a', 'r');
    await r.waitFor('› ar');
    expect(starts).toBe(0);
    await r.press(keys.backspace, keys.backspace);
    await r.waitFor((f) => !f.includes('› ar') && f.includes('Type a message'));
    await r.press('r');
    await r.waitFor('Could not start the daemon: port in use — press r');
    expect(starts).toBe(1);
    expect(r.text()).not.toMatch(/› r\b/);
    // the composer works as before: typing and sending
    await r.press('hi');
    await r.waitFor('› hi');
  });
});
