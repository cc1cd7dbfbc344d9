import { describe, expect, it } from 'vitest';
import { FakeHost, testPlatformContext } from './plugin-testing.js';
import { MemoryAdapter } from './testing.js';

describe('FakeHost', () => {
  it('records what an adapter hands over and waits for it with a deadline', async () => {
    const replies: string[] = [];
    const host = new FakeHost((m) => void replies.push(m.text));
    const adapter = host.attach(new MemoryAdapter('demo'));
    setTimeout(
      () => void adapter.receive({ source: { platform: 'demo', chatType: 'dm', chatId: 'c' }, text: 'hi' }),
      5,
    );
    expect((await host.message(0)).text).toBe('hi');
    expect(replies).toEqual(['hi']);
    await expect(host.message(1, 20)).rejects.toThrow(/timed out after 20 ms waiting for message #2/);
  });
});

describe('testPlatformContext', () => {
  it("fills the common platform keys and keeps the platform's own", () => {
    const ctx = testPlatformContext({ config: { server: 'irc.example' }, secrets: { A: 'b' } });
    expect(ctx.config).toMatchObject({ enabled: false, streaming: true, server: 'irc.example' });
    expect(ctx.secrets).toEqual({ A: 'b' });
  });
});
