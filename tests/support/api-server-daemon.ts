/**
 * The daemon of a test home with the `api_server` platform listening, and an `openai` client of
 * it (the reference client: no retries, so a refusal shows at once). Run `npm run build` first.
 */
import OpenAI from 'openai';
import type { FakeModelServer } from './fake-model-server.js';
import { makeTestHome } from './hermes-cli.js';
import { freePort } from './ngircd.js';
import { startDaemonWithPlatform } from './platform-daemon.js';

/** The API key the test homes carry (`API_SERVER_KEY`). */
export const API_KEY = 'test-key-0123456789abcdef';

/** A running API server of a test home. */
export interface ApiServerDaemon {
  root: string;
  /** `http://127.0.0.1:<port>/v1` */
  base: string;
  client: OpenAI;
}

/**
 * Makes a test home whose model is `model`, enables `api_server` on a free port (plus the
 * `extra` setting lines under it, e.g. `cors_origins: [...]`, and `modelLines` under the test
 * home's `model:` section, e.g. `vision: true`), starts its daemon and waits until the server
 * listens.
 */
export async function startApiServerDaemon(
  model: FakeModelServer,
  extra: readonly string[] = [],
  modelLines: readonly string[] = [],
): Promise<ApiServerDaemon> {
  const port = await freePort();
  const root = makeTestHome({
    modelUrl: model.url,
    env: `API_SERVER_KEY=${API_KEY}\n`,
    config: [
      // these continue the `model:` section the test home's config ends with
      ...modelLines.map((l) => `  ${l}`),
      'platforms:',
      '  api_server:',
      '    enabled: true',
      `    port: ${port}`,
      ...extra.map((l) => `    ${l}`),
    ].join('\n'),
  });
  await startDaemonWithPlatform(root, 'api_server', 'the API server to listen');
  const base = `http://127.0.0.1:${port}/v1`;
  return { root, base, client: new OpenAI({ baseURL: base, apiKey: API_KEY, maxRetries: 0 }) };
}

/** The messages of the last request the scripted model got, in order. */
export function lastMessages(model: FakeModelServer): Array<{ role: string; content: string }> {
  return model.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
}

/** The user messages of the last request the scripted model got, in order. */
export function lastUserTexts(model: FakeModelServer): string[] {
  return lastMessages(model)
    .filter((m) => m.role === 'user')
    .map((m) => m.content);
}

/** The APIError a call was refused with (fails when it was answered). */
export async function apiRefusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const r = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(r instanceof OpenAI.APIError)) throw new Error(`expected an APIError, got ${String(r)}`);
  return r;
}
