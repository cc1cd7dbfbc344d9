import { describe, expect, it } from 'vitest';
import type { WireEventOf } from '@hermes/core/protocol';
import { initialSessionState } from './session-reducer.js';
import { applyConversationEvent, rewoundNotice } from './conversation-events.js';

const steered = (
  state: 'pending' | 'delivered' | 'prompt',
  text = 'use tabs',
): WireEventOf<'prompt.steered'> => ({
  type: 'prompt.steered',
  session_id: 's',
  seq: 1,
  payload: { steer_id: 'st-1', text, state, ...(state === 'prompt' ? { prompt_id: 'p-1' } : {}) },
});

describe('conversation events in the transcript', () => {
  it('shows delivered guidance as a guidance item, pending and missed guidance as notices', () => {
    const s0 = initialSessionState();
    expect(applyConversationEvent(s0, steered('delivered')).items.at(-1)).toMatchObject({
      kind: 'user',
      text: 'use tabs',
      guidance: true,
    });
    expect(applyConversationEvent(s0, steered('pending')).items.at(-1)).toMatchObject({
      kind: 'notice',
      text: 'Guidance waits for the next step: “use tabs”',
    });
    expect(applyConversationEvent(s0, steered('prompt')).items.at(-1)!).toMatchObject({ kind: 'notice' });
  });

  it('adds nothing for a rewind (the controller reloads, then prints the notice)', () => {
    const s0 = initialSessionState();
    const ev: WireEventOf<'session.rewound'> = {
      type: 'session.rewound',
      session_id: 's',
      seq: 2,
      payload: { reason: 'undo', message_id: 4, removed: 2, text: 'second\nprompt', files: 'Restored x.' },
    };
    expect(applyConversationEvent(s0, ev)).toBe(s0);
    expect(rewoundNotice(ev.payload)).toBe(
      'Undone: 2 message(s) removed, back to before “second prompt”.\nRestored x.',
    );
  });
});
