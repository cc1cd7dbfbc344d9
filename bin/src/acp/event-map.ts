/**
 * The daemon's events of one session as ACP `session/update`s: streamed text and reasoning,
 * tool calls (kind, title, locations, a diff for edits, the result when done), the `todo` list as
 * a plan, and the prompts of turns another client started (so the editor shows the whole
 * conversation while a terminal shares the session).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { WireEvent } from '@hermes/core/protocol';
import { planFromTodo, toolDiff, toolKind, toolLocations, toolTitle } from './tool-map.js';

/** A tool call in flight: what `approval.request` and `tool.complete` need to know of it. */
export interface RunningCall {
  name: string;
  args: Record<string, unknown>;
}

/** Result text shown under a finished call, chars (the daemon caps `detail` at 8,000). */
const MAX_SHOWN_RESULT = 8_000;

/** Translates one session's events; keeps the calls in flight (by tool id, in start order). */
export class EventTranslator {
  /** Calls started and not yet complete, oldest first. */
  readonly running = new Map<string, RunningCall>();

  /** @param cwd the session's folder: relative tool paths are resolved against it. */
  constructor(private readonly cwd: string) {}

  /**
   * The updates for one event (none for events the editor has no place for: status, usage …).
   * @param ownPrompt true for a `turn.start` of a prompt the editor sent (its text is not echoed back).
   */
  translate(ev: WireEvent, ownPrompt = false): SessionUpdate[] {
    switch (ev.type) {
      case 'turn.start':
        return ownPrompt ? [] : [userText(ev.payload.text)];
      case 'message.delta':
        return ev.payload.text
          ? [{ sessionUpdate: 'agent_message_chunk', content: text(ev.payload.text) }]
          : [];
      case 'reasoning.delta':
        return ev.payload.text
          ? [{ sessionUpdate: 'agent_thought_chunk', content: text(ev.payload.text) }]
          : [];
      case 'tool.start': {
        const { tool_id, name, summary } = ev.payload;
        const args = (ev.payload.args ?? {}) as Record<string, unknown>;
        this.running.set(tool_id, { name, args });
        return [this.toolCall(tool_id, name, args, summary, 'in_progress')];
      }
      case 'tool.complete': {
        const { tool_id, ok, detail, summary, blocked } = ev.payload;
        const call = this.running.get(tool_id);
        this.running.delete(tool_id);
        const out: SessionUpdate[] = [];
        const shown = blocked
          ? `Blocked: ${blocked.reason}${detail ? `\n${detail}` : ''}`
          : (detail ?? summary);
        const edit = call && (call.name === 'write_file' || call.name === 'patch') && ok;
        out.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: tool_id,
          status: ok ? 'completed' : 'failed',
          // an edit keeps its diff; other calls show what the model received
          ...(edit || !shown ? {} : { content: [{ type: 'content', content: text(fenced(shown)) }] }),
          rawOutput: { ok, summary, ...(detail !== undefined ? { detail } : {}) },
        });
        if (call?.name === 'todo' && ok) {
          const entries = planFromTodo(detail);
          if (entries) out.push({ sessionUpdate: 'plan', entries });
        }
        return out;
      }
      default:
        return [];
    }
  }

  /** A `tool_call` update announcing a call (also used when replaying history). */
  toolCall(
    id: string,
    name: string,
    args: Record<string, unknown>,
    summary: string | undefined,
    status: 'in_progress' | 'completed' | 'failed' | 'pending',
  ): SessionUpdate {
    const diff = toolDiff(name, args, this.cwd);
    return {
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: toolTitle(name, summary ?? summaryOf(name, args), status === 'completed'),
      kind: toolKind(name),
      status,
      locations: toolLocations(name, args, this.cwd),
      ...(diff.length ? { content: diff } : {}),
      rawInput: args,
    };
  }

  /** The newest call in flight of tool `name`, if any. */
  runningCall(name: string): string | undefined {
    let found: string | undefined;
    for (const [id, c] of this.running) if (c.name === name) found = id;
    return found;
  }

  /** The newest call in flight that can ask for approval (a command or a script), if any. */
  askingCall(): string | undefined {
    let found: string | undefined;
    for (const [id, c] of this.running) if (c.name === 'terminal' || c.name === 'execute_code') found = id;
    return found;
  }
}

/** A text content block. */
export function text(t: string): { type: 'text'; text: string } {
  return { type: 'text', text: t };
}

/** A `user_message_chunk` of `t`. */
export function userText(t: string): SessionUpdate {
  return { sessionUpdate: 'user_message_chunk', content: text(t) };
}

/** A short summary of a call from its arguments, when the event carries none (history). */
export function summaryOf(name: string, args: Record<string, unknown>): string {
  for (const k of ['command', 'path', 'pattern', 'query', 'url', 'goal']) {
    const v = args[k];
    if (typeof v === 'string' && v) return v.split('\n')[0]!;
  }
  return '';
}

/** Result text in a code fence, capped. */
function fenced(s: string): string {
  const body = s.length > MAX_SHOWN_RESULT ? `${s.slice(0, MAX_SHOWN_RESULT)}\n…` : s;
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${body}\n${fence}`;
}
