/** The API server's stored responses: kept across connections, latest of a conversation, delete. */
import { describe, expect, it } from 'vitest';
import { useStateDbFile } from './testing.js';

const fx = useStateDbFile('hermes-api-responses-');

describe('SessionDB api_responses', () => {
  it('stores, finds the latest of a conversation, deletes and prunes', () => {
    const d = fx.open();
    const row = (id: string, at: number, conversation: string | null = 'proj') => ({
      id,
      chat_id: 'conv:proj',
      conversation,
      previous_id: null,
      body: JSON.stringify({ id }),
      created_at: at,
    });
    d.apiResponses.put(row('resp_1', 10));
    d.apiResponses.put(row('resp_2', 20));
    d.apiResponses.put(row('resp_3', 30, null));
    d.close();
    const again = fx.open();
    expect(again.apiResponses.get('resp_1')).toMatchObject({ chat_id: 'conv:proj', created_at: 10 });
    expect(again.apiResponses.latest('proj')?.id).toBe('resp_2');
    expect(again.apiResponses.delete('resp_2')).toBe(true);
    expect(again.apiResponses.delete('resp_2')).toBe(false);
    expect(again.apiResponses.latest('proj')?.id).toBe('resp_1');
    expect(again.apiResponses.prune(25)).toBe(1);
    expect(again.apiResponses.get('resp_3')).toBeDefined();
    again.close();
  });
});
