/**
 * `session.attach` to a long session and the daemon's memory with many idle live sessions,
 * against a real `hermes gateway` process (daemon-process.ts).
 *
 * - Attach: a session of 10,000 stored messages (user / assistant with tool calls / tool results,
 *   100–600 characters each) written into state.db before the daemon starts. `cold` = the first
 *   attach, which loads the session into the daemon (its agent reads the whole transcript) and
 *   returns the snapshot (last 200 messages); `session.close` unloads it between samples. `warm`
 *   = another client attaching to the live session (snapshot only). Timed at the client: request
 *   sent → answer parsed. The agent (which reads the whole transcript) is built on the session's
 *   first turn: `first_prompt` = `prompt.submit` sent → the model server receives the call, on a
 *   freshly loaded session.
 * - Memory: a fresh daemon; 100 sessions created, attached, each running one short scripted turn,
 *   then detached (idle live sessions: agent, replay ring, no client). VmRSS of the daemon process
 *   after the last turn, vs. the same daemon right after start.
 */
import { SessionDB } from '@hermes/core/state';
import { HermesHome } from '@hermes/core/home';
import { startFakeModelServer } from '../../tests/support/fake-model-server.js';
import { benchRoot, startBenchDaemonProcess } from './daemon-process.js';

/** Stored messages of the attach benchmark's session. */
export const ATTACH_MESSAGES = 10_000;
/** Idle live sessions of the memory benchmark. */
export const IDLE_SESSIONS = 100;

function sentence(i: number, len: number): string {
  const words = ['the', 'daemon', 'streams', 'a', 'reply', 'to', 'every', 'client', 'while', 'tools', 'run'];
  let s = `#${i}`;
  for (let k = 0; s.length < len; k++) s += ` ${words[(i * 7 + k) % words.length]}`;
  return s;
}

/** Writes a session of `n` messages (plus its system prompt) into the root's state.db. */
function seedLongSession(root: string, n: number): string {
  const db = SessionDB.open(new HermesHome(root).stateDbFile);
  try {
    const s = db.createSession({ source: 'bench', title: 'long', cwd: root });
    db.appendMessage(s.id, { role: 'system', content: 'You are Hermes.' });
    for (let i = 0; i < n; i++) {
      const kind = i % 4;
      if (kind === 0) db.appendMessage(s.id, { role: 'user', content: sentence(i, 120) });
      else if (kind === 1) {
        const call = {
          id: `call_${i}`,
          type: 'function',
          function: { name: 'read_file', arguments: `{"path":"f${i}.ts"}` },
        };
        db.appendMessage(s.id, {
          role: 'assistant',
          content: sentence(i, 100),
          tool_calls: JSON.stringify([call]),
        });
      } else if (kind === 2) {
        db.appendMessage(s.id, {
          role: 'tool',
          content: sentence(i, 600),
          tool_call_id: `call_${i - 1}`,
          tool_name: 'read_file',
        });
      } else db.appendMessage(s.id, { role: 'assistant', content: sentence(i, 400), status: 'complete' });
    }
    return s.id;
  } finally {
    db.close();
  }
}

/** Attach times, ms. */
export async function measureAttach(
  runs = { cold: 10, warm: 20, firstPrompt: 5 },
): Promise<{ cold: number[]; warm: number[]; firstPrompt: number[] }> {
  const model = await startFakeModelServer();
  const root = benchRoot(model.url);
  const sid = seedLongSession(root, ATTACH_MESSAGES);
  const daemon = startBenchDaemonProcess(root);
  const out = { cold: [] as number[], warm: [] as number[], firstPrompt: [] as number[] };
  try {
    const c = await daemon.connect('bench-attach');
    for (let i = 0; i <= runs.cold; i++) {
      const t0 = performance.now();
      const snap = await c.request('session.attach', { session_id: sid });
      const ms = performance.now() - t0;
      if (snap.kind !== 'snapshot' || snap.messages.length !== 200 || !snap.has_more)
        throw new Error('attach benchmark: unexpected snapshot');
      if (i > 0) out.cold.push(ms); // the first one also warms up the daemon's code
      await c.request('session.close', { session_id: sid });
    }
    // The deferred cost: the first prompt of a freshly loaded session builds its agent (reads the
    // whole transcript) before the model is called.
    const ended = new Set<string>();
    c.onEvent((e) => {
      if (e.type === 'turn.end') ended.add(String(e.payload.prompt_id));
    });
    for (let i = 0; i <= runs.firstPrompt; i++) {
      await c.request('session.attach', { session_id: sid });
      const before = model.requests.length;
      const t0 = Date.now(); // the model server stamps requests with Date.now() once read in full
      const { prompt_id } = await c.request('prompt.submit', { session_id: sid, text: `question ${i}` });
      await model.waitForRequests(before + 1, 30_000);
      if (i > 0) out.firstPrompt.push(model.requests[before]!.at - t0);
      while (!ended.has(prompt_id)) await new Promise((r) => setTimeout(r, 5));
      await c.request('session.close', { session_id: sid });
    }
    await c.request('session.attach', { session_id: sid });
    for (let i = 0; i <= runs.warm; i++) {
      const w = await daemon.connect(`bench-warm-${i}`);
      const t0 = performance.now();
      await w.request('session.attach', { session_id: sid });
      const ms = performance.now() - t0;
      if (i > 0) out.warm.push(ms);
      await w.close();
    }
    await c.close();
  } finally {
    daemon.stop();
    await model.close();
  }
  return out;
}

/** VmRSS of a fresh daemon, MB: right after start, and with `IDLE_SESSIONS` idle live sessions. */
export async function measureIdleSessionsRss(): Promise<{ idle: number; sessions: number }> {
  const model = await startFakeModelServer({ whenEmpty: { text: 'Noted. Anything else?' } });
  const root = benchRoot(model.url);
  const daemon = startBenchDaemonProcess(root);
  try {
    const c = await daemon.connect('bench-rss');
    await c.request('ping');
    const idle = daemon.rssMb();
    const ended = new Set<string>();
    c.onEvent((e) => {
      if (e.type === 'turn.end') ended.add(e.session_id);
    });
    const ids: string[] = [];
    for (let i = 0; i < IDLE_SESSIONS; i++) {
      const { session } = await c.request('session.create', { title: `idle ${i}` });
      ids.push(session.id);
      await c.request('session.attach', { session_id: session.id });
      await c.request('prompt.submit', { session_id: session.id, text: `remember the number ${i}` });
    }
    const deadline = Date.now() + 120_000;
    while (ended.size < IDLE_SESSIONS) {
      if (Date.now() > deadline) throw new Error(`rss benchmark: ${ended.size} turns ended`);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const id of ids) await c.request('session.detach', { session_id: id });
    const status = await c.request('gateway.status');
    if (status.sessions_live !== IDLE_SESSIONS)
      throw new Error(`rss benchmark: ${status.sessions_live} live`);
    await new Promise((r) => setTimeout(r, 500));
    const sessions = daemon.rssMb();
    await c.close();
    return { idle, sessions };
  } finally {
    daemon.stop();
    await model.close();
  }
}
