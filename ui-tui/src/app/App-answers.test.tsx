/**
 * Answering approval cards in the real App (ink-testing-library, scripted client): a card from
 * the attach snapshot is answered with `approval.answer`; a second window's answer that came too
 * late (-32003) or a `request.resolved` from elsewhere dismisses the card with a visible "answered
 * in another window"; a failed answer is a line in the transcript, never silently dropped.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcCallError } from '@hermes/client';
import { loadMarkdown } from '../markdown/render.js';
import { manualClock, type ManualClock } from '../testing/clock.js';
import { FakeClient } from '../testing/fake-client.js';
import { snapshotResult, wire } from '../testing/fixtures.js';
import { renderInk } from '../testing/ink.js';
import { waitFor } from '@hermes/client/testing';
import { App } from './App.js';
import { SessionController } from './controller.js';

const controllers: SessionController[] = [];
afterEach(() => {
  cleanup();
  for (const c of controllers.splice(0)) c.dispose();
});

/** An approval still open in the daemon, as the attach snapshot lists it (no server request). */
const openApproval = {
  request_id: 'approval-7',
  kind: 'approval' as const,
  params: {
    session_id: 's1',
    request_id: 'approval-7',
    kind: 'approval',
    command: 'rm -rf build',
    description: 'recursive delete',
    choices: ['once', 'session', 'always', 'deny'],
  },
  created_at: 1,
  expires_at: 9_999_999_999_999,
};

/** The App attached to `s1`, whose snapshot holds `openApproval`; `answer` scripts approval.answer. */
async function windowWithCard(answer: (p: Record<string, unknown>) => unknown) {
  const client = new FakeClient();
  client.handlers.set('session.attach', () => snapshotResult({ open_requests: [openApproval] }));
  client.handlers.set('approval.answer', answer);
  const controller = new SessionController({ client, cwd: '/work', throttleMs: 0, ready: loadMarkdown() });
  controllers.push(controller);
  const clock = manualClock();
  const r = await renderInk(
    <App
      controller={controller}
      writeRaw={() => {}}
      onExit={() => {}}
      exitWindowMs={5_000}
      probeLocal={async () => []}
      approvalClock={clock}
    />,
  );
  await controller.start({ mode: 'continue' });
  await r.waitFor('⚠ Approval needed');
  return { r, client, clock };
}

/** Presses `o` on the armed card and lets the selection stand (the card's rule). */
async function pressOnce(r: Awaited<ReturnType<typeof renderInk>>, clock: ManualClock): Promise<void> {
  clock.advance(600);
  await r.waitFor('to answer.');
  await r.press('o');
  clock.advance(350);
}

describe('answering a card', () => {
  it('a card restored from the snapshot is answered with approval.answer', async () => {
    const { r, client, clock } = await windowWithCard((p) => ({
      resolved: true,
      by: 'client:i-me',
      choice: p.choice,
    }));
    await pressOnce(r, clock);
    await waitFor(() => client.callsTo('approval.answer').length === 1);
    expect(client.callsTo('approval.answer')[0]).toEqual({
      session_id: 's1',
      request_id: 'approval-7',
      choice: 'once',
    });
    await r.waitFor((f) => !f.includes('Approval needed'));
    client.event(
      wire('request.resolved', 1, {
        request_id: 'approval-7',
        kind: 'approval',
        choice: 'once',
        by: 'client:i-me',
      }),
    );
    await r.waitFor('✓ Approved once (answered here)');
  });

  it('-32003 (another window was first): the card goes with "answered in another window", once', async () => {
    const { r, client, clock } = await windowWithCard(() => {
      throw new RpcCallError('approval.answer', -32003, 'already resolved', {
        by: 'client:other',
        choice: 'deny',
      });
    });
    await pressOnce(r, clock);
    const f = await r.waitFor('✗ Denied (answered in another window)');
    expect(f).not.toContain('Approval needed');
    // the daemon's request.resolved for the same request adds no second line
    client.event(
      wire('request.resolved', 1, {
        request_id: 'approval-7',
        kind: 'approval',
        choice: 'deny',
        by: 'client:other',
      }),
    );
    client.event(wire('error', 2, { message: 'a later event' })); // applied after it, in order
    const after = await r.waitFor('Error: a later event');
    expect(after.split('answered in another window').length - 1).toBe(1);
  });

  it('-32003 after the timeout says so', async () => {
    const { r, clock } = await windowWithCard(() => {
      throw new RpcCallError('approval.answer', -32003, 'already resolved', {
        by: 'timeout',
        choice: 'deny',
      });
    });
    await pressOnce(r, clock);
    await r.waitFor('✗ Denied (no answer in time)');
  });

  it('another window answers first (request.resolved): the card goes with "answered in another window"', async () => {
    const { r, client } = await windowWithCard(() => ({ resolved: true }));
    client.event(
      wire('request.resolved', 1, {
        request_id: 'approval-7',
        kind: 'approval',
        choice: 'once',
        by: 'client:other-window',
      }),
    );
    const f = await r.waitFor('✓ Approved once (answered in another window)');
    expect(f).not.toContain('Approval needed');
    expect(client.callsTo('approval.answer')).toEqual([]);
  });

  it('a failed answer is shown, not dropped', async () => {
    const { r, clock } = await windowWithCard(() => {
      throw new RpcCallError(
        'approval.answer',
        -32602,
        'session_id: this connection is not attached to session "s1"',
      );
    });
    await pressOnce(r, clock);
    const f = await r.waitFor('Your approval was not accepted: session_id: this connection is not attached');
    expect(f).not.toContain('Approval needed');
  });
});
