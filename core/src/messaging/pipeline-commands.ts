/**
 * Step 2 of the pipeline: the slash commands a platform user can type (slash.ts lists them, from
 * the one slash-command table, and the access rules). Each reply goes back to the chat the command came from.
 */
import { setConfigValue } from '../config/config-file.js';
import { parseReasoningArg, reasoningEffortText } from '../model/reasoning.js';
import type { SendOptions } from './adapter.js';
import { buildFooterLine } from './footer.js';
import type { MessagePipeline } from './pipeline.js';
import type { PlatformConfig } from './platform-config.js';
import { approveChoice, COMMAND_HELP, type ParsedCommand, type SlashAccessPolicy } from './slash.js';
import { NOT_THE_ASKER } from './pending-questions.js';
import type { MessageSource } from './source.js';

/** One command invocation. */
export interface CommandContext {
  command: ParsedCommand;
  source: MessageSource;
  /** Session key of the chat. */
  key: string;
  chatId: string;
  send: SendOptions;
  policy: SlashAccessPolicy;
  cfg: PlatformConfig;
}

/** Runs a platform command and answers in the chat. */
export async function runPlatformCommand(p: MessagePipeline, c: CommandContext): Promise<void> {
  const { command, source, key, chatId, send, policy } = c;
  const say = (text: string): Promise<void> => p.say(chatId, text, send);
  const userId = source.userIdAlt || source.userId;
  const sayUnanswered = async (r: 'answered' | 'none' | 'refused'): Promise<void> => {
    if (r === 'none') await say('Nothing is waiting for approval.');
    else if (r === 'refused') await say(NOT_THE_ASKER);
  };
  if (!policy.allows(userId, command.name)) {
    await say(`You may not use /${command.name} here. Try /help.`);
    return;
  }
  await p.emitHook(`command:${command.name}`, { session_key: key, args: command.args });
  const store = p.opts.store;
  const entry = store.get(key);
  const sessionId = entry?.session_id;

  switch (command.name) {
    case 'help': {
      const lines = policy.allowedCommands(userId).map((name) => `/${name}: ${COMMAND_HELP[name]}`);
      await say(`Commands:\n${lines.join('\n')}\nAnything else is sent to the agent.`);
      return;
    }
    case 'whoami': {
      const name = source.userName ? `${source.userName} ` : '';
      const admin = policy.gated ? (policy.isAdmin(userId) ? ', admin' : ', not an admin') : '';
      await say(
        `You are ${name}(id ${userId ?? 'unknown'}) on ${p.opts.entry.label}${admin}. ` +
          `You may use: ${policy
            .allowedCommands(userId)
            .map((n) => `/${n}`)
            .join(' ')}`,
      );
      return;
    }
    case 'status': {
      const s = sessionId ? p.backend.status(sessionId) : undefined;
      if (!s) {
        await say('No conversation yet: send a message to start one.');
        return;
      }
      const footer = buildFooterLine({
        model: s.model,
        contextTokens: s.contextTokens,
        contextWindow: s.contextWindow,
        cwd: s.cwd,
      });
      const clients = s.clients ? ` · ${s.clients} watching` : '';
      await say(`Session ${s.id}${footer ? ` · ${footer}` : ''} · ${s.busy ? 'working' : 'idle'}${clients}`);
      return;
    }
    case 'model': {
      const config = p.opts.config();
      if (!command.args) {
        const s = sessionId ? p.backend.status(sessionId) : undefined;
        const current = s?.model || config.model.default || 'the provider default';
        await say(
          `Model: ${current}. Default for new conversations: ${config.model.default || 'provider default'}.`,
        );
        return;
      }
      if (!policy.isAdmin(userId)) {
        await say('Only an admin may change the model.');
        return;
      }
      const model = command.args.split(/\s+/)[0]!;
      try {
        setConfigValue(p.opts.home, 'model.default', model);
      } catch (err) {
        await say(`Could not set the model: ${(err as Error).message}`);
        return;
      }
      await say(`Default model set to ${model}. It applies to new conversations: send /new to switch now.`);
      return;
    }
    case 'reasoning': {
      const set = parseReasoningArg(command.args);
      if (set !== null && typeof set === 'object') return say(set.error);
      if (!sessionId || !p.backend.reasoningEffort) {
        await say(
          sessionId
            ? 'The reasoning effort cannot be changed here.'
            : 'No conversation yet: send a message first.',
        );
        return;
      }
      if (set !== undefined && !policy.isAdmin(userId)) {
        await say('Only an admin may change the reasoning effort.');
        return;
      }
      const { effort, own } = p.backend.reasoningEffort(sessionId, set);
      await say(reasoningEffortText(effort, own, set !== undefined));
      return;
    }
    case 'new':
    case 'reset': {
      if (sessionId && p.backend.isBusy(sessionId)) p.backend.interrupt(sessionId);
      store.reset(key, 'session_reset');
      await say('Started a new conversation.');
      return;
    }
    case 'stop': {
      const stopped = sessionId ? p.backend.interrupt(sessionId) : false;
      await say(stopped ? 'Stopping.' : 'Nothing is running.');
      return;
    }
    case 'approve': {
      const choice = approveChoice(command.args);
      if (!choice) {
        await say('Use /approve, /approve session or /approve always.');
        return;
      }
      await sayUnanswered(p.questions.answerApproval(key, choice, userId));
      return;
    }
    case 'deny': {
      await sayUnanswered(p.questions.answerApproval(key, 'deny', userId));
      return;
    }
    default: {
      // every platform command of the one table has its case above (else tsc refuses this line)
      const unhandled: never = command.name;
      throw new Error(`platform command /${String(unhandled)} has no handler`);
    }
  }
}
