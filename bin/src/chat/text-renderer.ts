/**
 * Plain-text rendering of agent events for `hermes chat`: the reply streams to stdout, tool calls
 * and status lines are summarised on stderr so stdout stays the answer alone.
 */
import type { AgentEvent } from '@hermes/core/protocol';
import { inert } from '../terminal-text.js';

/** Minimal writable surface (process.stdout / process.stderr). */
export interface TextSink {
  write(text: string): unknown;
  /** True when the sink is a terminal (process.stdout.isTTY). */
  isTTY?: boolean;
}

/**
 * Returns an event handler that renders to the two sinks. The reply goes to `out` as the model
 * wrote it, unless `out` is a terminal: then characters a terminal acts on are shown inert
 * (terminal-text.ts), since a reply can repeat what a web page or a file told the model. What goes
 * to `err` (tool summaries, notices) is always shown inert.
 */
export function createTextRenderer(out: TextSink, err: TextSink): (e: AgentEvent) => void {
  const shown = out.isTTY ? inert : (text: string): string => text;
  let lineOpen = false; // stdout has text not yet followed by a newline
  const endLine = (): void => {
    if (lineOpen) out.write('\n');
    lineOpen = false;
  };
  let inMessage = false; // text of the current assistant message was printed
  return (e) => {
    switch (e.type) {
      case 'message.start':
        if (inMessage) {
          // a retried call streams its reply again from the start
          endLine();
          err.write('  … the reply restarts after a retry\n');
        }
        inMessage = false;
        break;
      case 'message.delta':
        if (e.payload.text) {
          out.write(shown(e.payload.text));
          lineOpen = !e.payload.text.endsWith('\n');
          inMessage = true;
        }
        break;
      case 'message.complete':
        inMessage = false;
        endLine();
        if (e.payload.status === 'interrupted') err.write('[interrupted]\n');
        break;
      case 'tool.start':
        endLine();
        err.write(inert(`  ⚙ ${e.payload.name}${e.payload.summary ? `: ${e.payload.summary}` : ''}`) + '\n');
        break;
      case 'tool.complete': {
        // refused for want of an approver: say so in words, not the reason's key
        const summary =
          e.payload.blocked?.reason === 'no_frontend'
            ? 'blocked: no one could approve it here (no terminal to ask)'
            : inert(e.payload.summary);
        err.write(
          `  ${e.payload.ok ? '✓' : '✗'} ${summary} (${(e.payload.duration_ms / 1000).toFixed(1)}s)\n`,
        );
        break;
      }
      case 'status.update':
        if (e.payload.state === 'retrying' || e.payload.state === 'compressing')
          err.write(`  … ${inert(e.payload.text ?? e.payload.state)}\n`);
        break;
      case 'error':
        endLine();
        // kind `notice`: told once, not a failure (e.g. reasoning effort unsupported)
        if (e.payload.kind === 'notice') err.write(`  note: ${inert(e.payload.message)}\n`);
        break;
      default:
        break;
    }
  };
}
