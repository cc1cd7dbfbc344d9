import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { PendingAttachments } from '../app/pending-attachments.js';
import { AttachmentChips, PendingChips } from './AttachmentChips.js';
import { MessageView } from './MessageView.js';

describe('AttachmentChips', () => {
  it('shows each attachment as a chip, and nothing when there are none', () => {
    const r = render(
      <AttachmentChips
        items={[
          { kind: 'image', name: 'shot.png', bytes: 69 },
          { kind: 'image', name: 'b.gif' },
        ]}
        width={80}
      />,
    );
    expect(r.lastFrame()).toBe('[image shot.png · 69 B] [image b.gif]');
    expect(render(<AttachmentChips items={[]} width={80} />).lastFrame()).toBe('');
  });

  it('follows the pending images of the next prompt', () => {
    const pending = new PendingAttachments();
    const r = render(<PendingChips pending={pending} width={80} />);
    expect(r.lastFrame()).toBe('');
    pending.add({ kind: 'image', path: '/x/a.png', name: 'a.png', bytes: 2048 });
    r.rerender(<PendingChips pending={pending} width={80} />);
    expect(r.lastFrame()).toBe('[image a.png · 2.0 KB]');
  });

  it('a stored user message shows its chips under the text', () => {
    const r = render(
      <MessageView
        item={{
          n: 1,
          kind: 'user',
          text: 'what is this?',
          attachments: [{ kind: 'image', name: 'dot.png', mime: 'image/png', bytes: 69 }],
        }}
        width={80}
      />,
    );
    expect(r.lastFrame()).toContain('› what is this?\n  [image dot.png · 69 B]');
  });
});
