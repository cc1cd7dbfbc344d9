/**
 * `hermes pairing list | approve CODE | revoke PLATFORM USER`: the
 * owner's side of DM pairing, in the selected profile's `pairing/` folder. A code typed here is
 * never echoed or logged; five wrong codes lock the platform's approvals for an hour. Names and
 * ids come from strangers: they are printed as inert one-line labels (controls escaped or blanked).
 */
import type { Argv, CommandModule } from 'yargs';
import { CliExit, type CliContext } from '../context.js';

async function store(ctx: CliContext) {
  const { PairingStore, neutralizeInlineText } = await import('../lazy/pairing.js');
  return Object.assign(new PairingStore(ctx.home.pairingDir), { neutralize: neutralizeInlineText });
}

/**
 * A user id as shown to the owner: as is when it is printable ASCII, else JSON-quoted so controls
 * and invisible characters appear escaped (the owner can still read and revoke it).
 */
function shownId(id: string): string {
  return /^[\x21-\x7e]+$/.test(id) ? id : escapeJson(JSON.stringify(id), /[\u007f-\uffff]/g);
}

/** Characters JSON.stringify leaves raw that a terminal acts on or that hide or reorder text. */
const INVISIBLE = /[\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** JSON text with the characters matched by `re` written as `\uXXXX` escapes (still the same JSON). */
function escapeJson(json: string, re: RegExp = INVISIBLE): string {
  return json.replace(re, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `id (name)`: the sender-chosen name as an inert one-line label, omitted when it is the id. */
function shownUser(id: string, name: string, neutralize: (v: unknown) => string): string {
  const label = neutralize(name);
  return label && label !== id ? `${shownId(id)} (${label})` : shownId(id);
}

function age(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Builds the `pairing` command. */
export function pairingCommand(ctx: CliContext): CommandModule {
  return {
    command: 'pairing',
    describe: 'Approve chat users who asked to pair with the agent',
    builder: (y: Argv) =>
      y
        .command({
          command: 'list',
          describe: 'Pending pairing requests and approved users',
          builder: (a) => a.option('json', { type: 'boolean', default: false, describe: 'Print JSON' }),
          handler: async (argv) => {
            const s = await store(ctx);
            const pending = s.listPending();
            const approved = s.listApproved();
            if (argv.json) {
              process.stdout.write(`${escapeJson(JSON.stringify({ pending, approved }, null, 2))}\n`);
              return;
            }
            const now = Date.now();
            const lines = ['Pending requests:'];
            if (pending.length === 0) lines.push('  (none)');
            for (const p of pending)
              lines.push(
                `  ${p.platform}  ${shownUser(p.userId, p.userName, s.neutralize)}  asked ${age(now - p.createdAt)} ago, expires in ${age(p.expiresAt - now)}`,
              );
            lines.push('Approved users:');
            if (approved.length === 0) lines.push('  (none)');
            for (const u of approved)
              lines.push(`  ${u.platform}  ${shownUser(u.userId, u.userName, s.neutralize)}`);
            process.stdout.write(`${lines.join('\n')}\n`);
          },
        })
        .command({
          command: 'approve <code>',
          describe: 'Approve the user who was given this pairing code',
          builder: (a) =>
            a
              .positional('code', { type: 'string', demandOption: true, describe: 'The 8-character code' })
              .option('platform', { type: 'string', describe: 'Only look on this platform' }),
          handler: async (argv) => {
            const s = await store(ctx);
            const r = s.approveCode(String(argv.code), argv.platform ? String(argv.platform) : undefined);
            if (!r.ok) {
              throw new CliExit(
                1,
                r.reason === 'locked_out'
                  ? 'pairing approvals are locked for an hour after too many wrong codes'
                  : 'no pending request has this code (wrong, used or expired)',
              );
            }
            const name = s.neutralize(r.userName);
            const who = name && name !== r.userId ? `${name} (${shownId(r.userId)})` : shownId(r.userId);
            process.stdout.write(`Approved ${who} on ${r.platform}.\n`);
          },
        })
        .command({
          command: 'revoke <platform> <user>',
          describe: 'Remove an approved user',
          builder: (a) =>
            a
              .positional('platform', { type: 'string', demandOption: true })
              .positional('user', { type: 'string', demandOption: true, describe: 'The user id' }),
          handler: async (argv) => {
            const s = await store(ctx);
            if (!s.revoke(String(argv.platform), String(argv.user)))
              throw new CliExit(1, `${String(argv.user)} is not approved on ${String(argv.platform)}`);
            process.stdout.write(`Revoked ${String(argv.user)} on ${String(argv.platform)}.\n`);
          },
        })
        .demandCommand(1, 'Give a pairing sub-command: list, approve, revoke'),
    handler: () => undefined,
  };
}
