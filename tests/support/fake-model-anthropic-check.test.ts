// The scripted server's Anthropic request checks: what the real API refuses is refused here.
import { describe, expect, it } from 'vitest';
import { anthropicRequestProblem } from './fake-model-anthropic-check.js';

const user = (content: unknown) => ({ role: 'user', content });
const use = (id: string) => ({ type: 'tool_use', id, name: 't', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'r' });

describe('anthropicRequestProblem', () => {
  it('accepts a valid tool round trip with thinking and 4 breakpoints', () => {
    const c = { cache_control: { type: 'ephemeral' } };
    expect(
      anthropicRequestProblem({
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        system: [{ type: 'text', text: 'S', ...c }],
        messages: [
          user('hi'),
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'x' },
              { ...use('toolu_1'), ...c },
            ],
          },
          user([{ ...result('toolu_1'), ...c }]),
          { role: 'assistant', content: [{ type: 'text', text: 'done', ...c }] },
        ],
      }),
    ).toBeUndefined();
  });

  it('refuses empty or whitespace text, odd tool ids, unanswered or unknown tool ids, 5 breakpoints, a bad budget', () => {
    expect(anthropicRequestProblem({ messages: [user('')] })).toMatch(/must be non-empty/);
    expect(anthropicRequestProblem({ messages: [user(' \n')] })).toMatch(/non-whitespace/);
    expect(anthropicRequestProblem({ system: [{ type: 'text', text: ' ' }], messages: [user('q')] })).toMatch(
      /^system: .*non-whitespace/,
    );
    const odd = [
      user('q'),
      { role: 'assistant', content: [use('functions.f:0')] },
      user([result('functions.f:0')]),
    ];
    expect(anthropicRequestProblem({ messages: odd })).toMatch(/tool_use\.id: String should match pattern/);
    const unanswered = [user('q'), { role: 'assistant', content: [use('a'), use('b')] }, user([result('a')])];
    expect(anthropicRequestProblem({ messages: unanswered })).toMatch(/without `tool_result`.*: b\./);
    const unknown = [user('q'), { role: 'assistant', content: [use('a')] }, user([result('a'), result('z')])];
    expect(anthropicRequestProblem({ messages: unknown })).toMatch(/unexpected `tool_use_id`.*: z\./);
    const image = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(5242884) },
    };
    expect(anthropicRequestProblem({ messages: [user([image])] })).toMatch(/image exceeds 5 MB maximum/);
    const c = { cache_control: { type: 'ephemeral' } };
    const five = [1, 2, 3, 4, 5].map((n) =>
      n % 2
        ? user([{ type: 'text', text: 'u', ...c }])
        : { role: 'assistant', content: [{ type: 'text', text: 'a', ...c }] },
    );
    expect(anthropicRequestProblem({ messages: five })).toMatch(/maximum of 4 .* Found 5/);
    expect(
      anthropicRequestProblem({
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        messages: [user('q')],
      }),
    ).toMatch(/max_tokens/);
  });
});
