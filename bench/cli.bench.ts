/**
 * CLI and agent-loop benchmarks:
 * - `hermes --version` start-up (goal ≤ 100 ms);
 * - `hermes chat -q` from launch until the scripted model server receives the first request
 *   (goal ≤ 200 ms);
 * - the loop's own overhead per tool round trip against the scripted server (goal ≤ 20 ms).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAgent } from '@hermes/core/testing';
import type { ToolDefinition } from '@hermes/core/tools';
import { startFakeModelServer } from '../tests/support/fake-model-server.js';
import { HERMES_BIN } from '../tests/support/hermes-cli.js';
import type { Benchmark } from './lib/types.js';

const RUNS = 15;

function runOnce(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [HERMES_BIN, ...args], { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - t0));
  });
}

export const benchmarks: Benchmark[] = [
  {
    name: 'cli.version.startup',
    unit: 'ms',
    goal: 100,
    async run() {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) out.push(await runOnce(['--version'], process.env));
      return out;
    },
  },
  {
    name: 'node.bare.startup',
    unit: 'ms',
    async run() {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await new Promise((r) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).on('close', r));
        out.push(performance.now() - t0);
      }
      return out;
    },
  },
  {
    name: 'chat.first_request',
    unit: 'ms',
    goal: 200,
    async run() {
      const server = await startFakeModelServer();
      const root = mkdtempSync(join(tmpdir(), 'bench-chat-'));
      writeFileSync(
        join(root, 'config.yaml'),
        `model:\n  provider: custom\n  base_url: ${server.url}\n  default: fake\n`,
      );
      const env = { ...process.env, HERMES_HOME: root };
      const out: number[] = [];
      try {
        for (let i = 0; i < RUNS; i++) {
          const n = server.requests.length;
          const t0 = Date.now();
          const child = spawn(process.execPath, [HERMES_BIN, 'chat', '-q', 'hi'], { env, stdio: 'ignore' });
          await server.waitForRequests(n + 1, 10_000);
          out.push(server.requests[n]!.at - t0);
          await new Promise((r) => child.on('close', r));
        }
      } finally {
        await server.close();
      }
      return out;
    },
  },
  {
    name: 'agent.loop_overhead_per_round_trip',
    unit: 'ms',
    goal: 20,
    async run() {
      const server = await startFakeModelServer();
      const noop: ToolDefinition = {
        name: 'noop',
        description: 'does nothing',
        parameters: { type: 'object', properties: {} },
        readOnly: true,
        handler: async () => ({ ok: true, content: 'ok' }),
      };
      const K = 20;
      const out: number[] = [];
      try {
        for (let run = 0; run < 8; run++) {
          const { agent, db } = createTestAgent({
            modelUrl: server.url,
            prefix: 'bench-loop-',
            tools: [noop],
            systemPrompt: 'bench',
            session: { source: 'bench' },
          });
          for (let i = 0; i < K; i++) server.push({ toolCalls: [{ name: 'noop' }] });
          server.push({ text: 'done' });
          const t0 = performance.now();
          await agent.runTurn('go');
          out.push((performance.now() - t0) / (K + 1));
          db.close();
        }
      } finally {
        await server.close();
      }
      return out;
    },
  },
];
