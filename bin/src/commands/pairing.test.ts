import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HermesHome } from '@hermes/core/home';
import { PairingStore } from '@hermes/core/messaging';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../testing.js';

let root: string;
let home: HermesHome;

const hermes = async (...argv: string[]): Promise<string> => (await runCliInProcess(home, argv)).out;

/** A display name a stranger chose: it clears the line and forges an approved-looking entry. */
const HOSTILE_NAME = 'eve\x1b[2K\r\n  telegram  42 (owner)\u202e\x07\x1b]52;c;cm0gLXJmIH4=\x07';

/** True when the text holds a C0/C1 control other than the newline, or a bidi override. */
const hasControls = (text: string): boolean =>
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hermes-pairing-cli-'));
  home = new HermesHome(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('hermes pairing', () => {
  it('lists pending and approved users with their names as inert one-line labels', async () => {
    const store = new PairingStore(home.pairingDir);
    expect(store.generateCode('telegram', '999', HOSTILE_NAME).ok).toBe(true);
    store.approveUser('matrix', '@eve:evil.example', HOSTILE_NAME);
    const out = await hermes('pairing', 'list');
    expect(hasControls(out)).toBe(false);
    const lines = out.trimEnd().split('\n');
    // one line per entry: the name cannot start a line of its own
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^ {2}telegram {2}999 \(eve .*\) {2}asked 0 min ago, expires in 1 h 0 min$/);
    expect(lines[3]).toMatch(/^ {2}matrix {2}@eve:evil\.example \(eve .*\)$/);
    // --json keeps the stored value (controls and bidi characters written as \u escapes)
    const json = await hermes('pairing', 'list', '--json');
    expect(hasControls(json)).toBe(false);
    expect((JSON.parse(json) as { pending: { userName: string }[] }).pending[0]!.userName).toBe(HOSTILE_NAME);
  });

  it("approving a code names the user on one line without the name's controls", async () => {
    const store = new PairingStore(home.pairingDir);
    const issued = store.generateCode('telegram', '999', HOSTILE_NAME);
    if (!issued.ok) throw new Error('no code');
    const out = await hermes('pairing', 'approve', issued.code);
    expect(hasControls(out)).toBe(false);
    expect(out).toMatch(/^Approved eve .* \(999\) on telegram\.\n$/);
  });

  it('shows a user id with controls escaped, so the owner can still see and revoke it', async () => {
    const store = new PairingStore(home.pairingDir);
    store.approveUser('email', 'eve\x1b[8m@evil.example', '');
    const out = await hermes('pairing', 'list');
    expect(hasControls(out)).toBe(false);
    expect(out).toContain('email  "eve\\u001b[8m@evil.example"');
  });
});
