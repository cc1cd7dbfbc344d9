/** The card line that says exactly what `session` and `always` approve (the request's `allows`). */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { requestView } from '../state/session-reducer.js';
import { manualClock } from '../testing/clock.js';
import { renderInk } from '../testing/ink.js';
import { ApprovalCard } from './ApprovalCard.js';
import { approvalScope } from './approval-scope.js';

afterEach(() => cleanup());

const entry = 'recursive-delete: rm -f -r [/p/build]';
const ALL = ['once', 'session', 'always', 'deny'];

describe('approvalScope', () => {
  it('names the entries for the answers offered', () => {
    expect(approvalScope({ allows: [entry], choices: ALL })).toBe(
      `session / always = allow only \`${entry}\` (for this session / in this profile)`,
    );
    expect(approvalScope({ allows: [entry, 'b: x'], choices: ['once', 'always', 'deny'] })).toBe(
      `always = allow only \`${entry}\`, \`b: x\` in this profile`,
    );
    expect(approvalScope({ allows: [entry], choices: ['once', 'deny'] })).toBe('');
    expect(approvalScope({ choices: ALL })).toBe(''); // an older daemon sends none
  });

  it('comes from the request params (and is absent when they have none)', () => {
    const view = requestView('approval', 'r1', { command: 'rm -rf build', choices: ALL, allows: [entry] });
    expect(view?.kind === 'approval' && view.params.allows).toEqual([entry]);
    const old = requestView('approval', 'r2', { command: 'rm -rf build', choices: ALL });
    expect(old?.kind === 'approval' && 'allows' in old.params).toBe(false);
  });

  it('is shown on the card under the reason', async () => {
    const r = await renderInk(
      <ApprovalCard
        params={{ command: 'rm -rf build', description: 'recursive delete', choices: ALL, allows: [entry] }}
        onAnswer={() => {}}
        onPassKey={() => {}}
        draftChars={0}
        clock={manualClock()}
        width={120}
      />,
    );
    const f = r.text();
    expect(f).toContain('Why: recursive delete');
    expect(f).toContain(`session / always = allow only \`${entry}\``);
    expect(f.indexOf('Why:')).toBeLessThan(f.indexOf('allow only'));
  });
});
