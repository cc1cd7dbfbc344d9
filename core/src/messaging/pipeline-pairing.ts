/**
 * A pairing code for an unknown user who wrote to the agent (authorization said `pair`): sent to
 * that user only, never logged; the owner approves it with `hermes pairing approve CODE`.
 */
import type { SendOptions } from './adapter.js';
import type { MessagePipeline } from './pipeline.js';
import type { MessageSource } from './source.js';
import { hashPiiId } from './untrusted.js';

/** Offers the sender of `chatId` a pairing code (rate-limited per user; failures are logged). */
export async function offerPairing(
  p: MessagePipeline,
  source: MessageSource,
  chatId: string,
  send: SendOptions,
): Promise<void> {
  const userId = source.userIdAlt || source.userId!;
  let result;
  try {
    result = p.opts.pairing.generateCode(p.opts.entry.name, userId, source.userName ?? '');
  } catch (err) {
    p.opts.log(`${p.opts.entry.name}: pairing failed: ${(err as Error).message}`);
    return;
  }
  if (result.ok) {
    // The code goes to this user only, never into a log line.
    p.opts.log(`${p.opts.entry.name}: pairing code issued to an unknown user (${hashPiiId(userId)})`);
    const profileFlag = p.opts.profile === 'default' ? '' : ` -p ${p.opts.profile}`;
    await p.say(
      chatId,
      `I don't know you yet. Your pairing code is ${result.code} (valid for 1 hour). ` +
        `Ask the owner of this agent to run: hermes${profileFlag} pairing approve ${result.code}`,
      send,
    );
  } else if (result.reason !== 'rate_limited') {
    await p.say(chatId, 'Pairing is not possible right now; please try again later.', send);
  }
}
