/** What an approval card says `session` and `always` approve. */
import type { ApprovalParams } from '../state/types.js';

/**
 * The card's line naming exactly what `session` and `always` would allow: the request's `allows`
 * entries (one per rule hit, as the daemon will store them), e.g. "always = allow only
 * `recursive-delete: rm -f -r [/p/build]` in this profile". Empty when the daemon sent none (an
 * older daemon) or neither answer is offered.
 */
export function approvalScope(params: Pick<ApprovalParams, 'allows' | 'choices'>): string {
  const allows = params.allows ?? [];
  if (allows.length === 0) return '';
  const what = allows.map((e) => `\`${e}\``).join(', ');
  const session = params.choices.includes('session');
  const always = params.choices.includes('always');
  if (session && always) return `session / always = allow only ${what} (for this session / in this profile)`;
  if (session) return `session = allow only ${what} for this session`;
  if (always) return `always = allow only ${what} in this profile`;
  return '';
}
