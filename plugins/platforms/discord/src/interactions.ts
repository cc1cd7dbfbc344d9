/**
 * Interactions: a pressed prompt button and a slash command. A press is handed to the pipeline,
 * whose outcome decides the answer — an answered prompt is edited to say who answered and loses
 * its buttons, a refusal is shown to the presser only (ephemeral), a closed question says so. A
 * slash command is acknowledged at once (deferred: Discord wants an answer within 3 s), runs as
 * its text through the pipeline, and the deferred reply then shows the command.
 */
import type { ButtonOutcome, ButtonPress, InboundMessage, InboundReceipt } from '@hermes/core';
import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { commandText } from './commands.js';
import { approvalLabel, parseButtonId, type ButtonTable } from './components.js';
import { sourceOf, type ChannelLike } from './inbound.js';
import { fit } from './limits.js';

/** What the interaction handlers need from the adapter. */
export interface InteractionHost {
  buttons: ButtonTable;
  /** The guild and channel allow-lists. */
  allowedPlace(guildId: string | null, channel: ChannelLike): boolean;
  /** Hands a press to the pipeline (the adapter's `emitButton`). */
  press(press: ButtonPress): Promise<ButtonOutcome | undefined>;
  /** Hands a message to the pipeline and waits for its receipt (`emitMessageWithReceipt`). */
  message(message: Omit<InboundMessage, 'onReceipt'>, id: string): Promise<InboundReceipt>;
}

type Answerable = ButtonInteraction | ChatInputCommandInteraction;

/** The channel of an interaction, also when it is not cached (a DM before its first message). */
export function interactionChannel(i: Answerable): ChannelLike {
  if (i.channel) return i.channel as unknown as ChannelLike;
  const dm = !i.inGuild();
  return { id: i.channelId ?? '', isDMBased: () => dm, isThread: () => false };
}

/** The presser's display name: guild nickname, global name, else username. */
export function interactionUserName(i: Answerable): string {
  const member = i.member as { displayName?: string; nick?: string | null } | null;
  return member?.displayName || member?.nick || i.user.globalName || i.user.username;
}

const CLOSED = 'This question is closed.';

/** Handles a button press; ignores buttons that are not a prompt's. */
export async function handleButton(i: ButtonInteraction, host: InteractionHost): Promise<void> {
  const ref = parseButtonId(i.customId);
  if (!ref) return;
  const hit = host.buttons.resolve(ref);
  if (!hit) {
    await i.reply({ content: CLOSED, flags: MessageFlags.Ephemeral });
    return;
  }
  const name = interactionUserName(i);
  const source = sourceOf(interactionChannel(i), { id: i.user.id, name });
  const outcome = await host.press({ source, requestId: hit.prompt.requestId, value: hit.value });
  if (outcome?.kind === 'answered') {
    host.buttons.close(ref.token);
    const label = ref.kind === 'a' ? approvalLabel(hit.value) : hit.value;
    const note = `\n\n**${label}** — answered by ${name}`;
    await i.update({ content: fit(`${i.message.content}${note}`), components: [] });
  } else if (outcome?.kind === 'refused') {
    await i.reply({ content: outcome.reason, flags: MessageFlags.Ephemeral });
  } else {
    host.buttons.close(ref.token);
    await i.reply({ content: CLOSED, flags: MessageFlags.Ephemeral });
  }
}

/** Handles a slash command: deferred, then its text through the pipeline. */
export async function handleCommand(i: ChatInputCommandInteraction, host: InteractionHost): Promise<void> {
  const text = commandText(i.commandName, (n) => i.options.getString(n));
  const channel = interactionChannel(i);
  if (!text || !host.allowedPlace(i.guildId, channel)) {
    await i.reply({ content: 'That command is not available here.', flags: MessageFlags.Ephemeral });
    return;
  }
  await i.deferReply();
  const source = sourceOf(channel, { id: i.user.id, name: interactionUserName(i) });
  const dedupeKey = `interaction:${i.id}`;
  const receipt = await host.message({ source, text, dedupeKey }, dedupeKey);
  const shown =
    receipt.kind === 'accepted' || receipt.kind === 'duplicate'
      ? `\`${text}\``
      : receipt.kind === 'refused'
        ? `\`${text}\` — not accepted (${receipt.reason})`
        : `\`${text}\` — not taken now; please try again`;
  await i.editReply({ content: shown });
}
