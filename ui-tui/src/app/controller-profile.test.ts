import { afterEach, describe, expect, it } from 'vitest';
import { sessionInfo, snapshotResult } from '../testing/fixtures.js';
import { FakeClient } from '../testing/fake-client.js';
import { waitFor } from '@hermes/client/testing';
import { SessionController } from './controller.js';
import { exitHint } from './exit-hint.js';

const controllers: SessionController[] = [];
afterEach(() => {
  for (const c of controllers.splice(0)) c.dispose();
});

/** Two profiles: `default` (its newest session is a one-shot) and `work`, each with its model. */
function twoProfiles(): FakeClient {
  const client = new FakeClient();
  const sessions: Record<string, string[]> = { default: ['one-shot', 'mine'], work: ['w1'] };
  const models: Record<string, string> = { default: 'fake-model', work: 'gpt-4.1-mini' };
  client.handlers.set('session.list', () => ({
    sessions: sessions[client.profile]!.map((id) => sessionInfo({ id, title: id, profile: client.profile })),
  }));
  // the work session names no model (the status bar shows the profile's); default's names one
  client.handlers.set('session.attach', (p) =>
    snapshotResult({
      session: sessionInfo({
        id: String(p.session_id),
        title: String(p.session_id),
        profile: client.profile,
        model: client.profile === 'work' ? '' : 'fake-model',
      }),
    }),
  );
  client.handlers.set('model.list', () => ({ models: [], current: models[client.profile] }));
  return client;
}

describe('SessionController profile switch', () => {
  it('returns to the session left in a profile, with that profile’s model', async () => {
    const client = twoProfiles();
    const c = new SessionController({ client, cwd: '/w', throttleMs: 0 });
    controllers.push(c);
    await c.start({ mode: 'session', session: 'mine' });
    expect(c.state.sessionId).toBe('mine');

    await c.switchProfile('work');
    expect(c.state).toMatchObject({ sessionId: 'w1', profile: 'work' });
    await waitFor(() => c.state.defaultModel === 'gpt-4.1-mini');

    await c.switchProfile('default');
    expect(c.state).toMatchObject({ sessionId: 'mine', profile: 'default' }); // not the newest one
    await waitFor(() => c.state.defaultModel === 'fake-model');

    await c.detach();
    expect(c.state.sessionId).toBeNull();
    expect(c.state.defaultModel).toBe('fake-model');
    expect(c.exitSession).toMatchObject({ id: 'mine', profile: 'default' });
  });

  it('a refused switch goes back to the profile and session it left, and says why', async () => {
    const client = twoProfiles();
    const switchTo = client.switchProfile;
    client.switchProfile = async (profile) => {
      if (profile === 'nosuch') {
        client.profile = 'nosuch';
        throw new Error('no profile named "nosuch"');
      }
      return switchTo(profile);
    };
    const c = new SessionController({ client, cwd: '/w', throttleMs: 0 });
    controllers.push(c);
    await c.start({ mode: 'session', session: 'mine' });
    await expect(c.switchProfile('nosuch')).rejects.toThrow('nosuch');
    expect(client.profile).toBe('default');
    expect(c.state).toMatchObject({ sessionId: 'mine', profile: 'default' });
  });

  it('falls back to the newest session when the one left is gone', async () => {
    const client = twoProfiles();
    const c = new SessionController({ client, cwd: '/w', throttleMs: 0 });
    controllers.push(c);
    await c.start({ mode: 'session', session: 'mine' });
    await c.switchProfile('work');
    client.handlers.set('session.list', () => ({
      sessions: client.profile === 'work' ? [sessionInfo({ id: 'w1' })] : [sessionInfo({ id: 'one-shot' })],
    }));
    client.handlers.set('session.history', () => {
      throw new Error('gone');
    });
    await c.switchProfile('default');
    expect(c.state.sessionId).toBe('one-shot');
  });
});

describe('exitHint', () => {
  const session = { id: '20260101_ab12', title: 'Fix the build', profile: 'default', busy: false };

  it('names the session and how to resume it', () => {
    expect(exitHint(session, 'default')).toBe(
      'Session “Fix the build” stays in the daemon (in the background). ' +
        'Resume: hermes tui -s 20260101_ab12 · the latest: hermes tui -c',
    );
  });

  it('says a running turn keeps running, and names another profile than the start one', () => {
    const hint = exitHint({ ...session, title: null, profile: 'work', busy: true }, 'default');
    expect(hint).toBe(
      'Session keeps running in the daemon (in the background). ' +
        'Resume: hermes tui -p work -s 20260101_ab12 · the latest: hermes tui -p work -c',
    );
    expect(exitHint(null, 'default')).toBeNull();
  });
});
