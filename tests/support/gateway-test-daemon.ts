/**
 * A tui-gateway daemon for cross-process tests: `hermes gateway run` (runGateway: signals, lock,
 * discovery, log) with test hooks instead of the session layer. Run with
 * `node --conditions=@hermes/source --import tsx tests/support/gateway-test-daemon.ts` and HERMES_HOME set.
 *
 * - `drain` records its request in `<root>/drain-called.json` (then returns clean).
 * - `stats` reports `sessions_live: 2`.
 * - `slash.exec` commands (session_id is used as the events' session):
 *   `emit <n> <type> <bytes>` sends n events like a streaming agent (one per 1 ms timer tick, so
 *   a reader that keeps up never builds a queue even on a loaded machine) to every connection
 *   whose client name starts with `burst` (other test clients are spared);
 *   `ask <request_id>` sends `approval.request` to every other initialized connection and
 *   answers with what each did (`c-…: once` or `c-…: rejected: <message>`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveRoot } from '@hermes/core/home';
import { wireEvent, type EventType } from '@hermes/core/protocol';
import { runGateway } from '@hermes/tui-gateway';

const { root } = resolveRoot(process.env);
let seq = 0;

const code = await runGateway({
  root,
  version: '0.0.0-test',
  detached: process.argv.includes('--detached'),
  hooks: {
    stats: () => ({ sessions_live: 2 }),
    drain: async (req) => {
      writeFileSync(join(root, 'drain-called.json'), JSON.stringify(req));
      return { clean: true };
    },
    registerHandlers: (registry, ctx) => {
      registry.register('slash.exec', async ({ session_id, command }, conn) => {
        const [verb, ...args] = command.split(' ');
        if (verb === 'emit') {
          const [n, type, bytes] = args;
          const text = 'x'.repeat(Number(bytes));
          const targets = ctx.connections().filter((c) => c.clientName.startsWith('burst'));
          for (let i = 0; i < Number(n); i++) {
            const payload = type === 'tool.progress' ? { tool_id: 't', text } : { text };
            // the test names the type: checked against its schema like every daemon event
            const event = wireEvent(type as EventType, session_id, ++seq, payload as never, Date.now());
            for (const c of targets) c.notify(event);
            await new Promise((r) => setTimeout(r, 1));
          }
          return { output: `emitted ${n}`, handled: true };
        }
        if (verb === 'ask') {
          const others = ctx.connections().filter((c) => c.id !== conn.id);
          const answers = await Promise.all(
            others.map((c) =>
              c
                .request('approval.request', {
                  session_id,
                  request_id: args[0] ?? 'r',
                  kind: 'approval',
                  command: 'rm -rf build',
                  description: 'recursive delete',
                  choices: ['once', 'session', 'always', 'deny'],
                })
                .then(
                  (r) => `${c.id}: ${String((r as { choice?: unknown }).choice)}`,
                  (e: unknown) => `${c.id}: rejected: ${(e as Error).message}`,
                ),
            ),
          );
          return { output: answers.join('\n'), handled: true };
        }
        return { output: `unknown test command ${command}`, handled: false };
      });
    },
  },
});
process.exit(code);
