/**
 * `hermes pairing list | approve CODE | revoke PLATFORM USER`: the
 * owner's side of DM pairing, in the selected profile's `pairing/` folder. A code typed here is
 * never echoed or logged; five wrong codes lock the platform's approvals for an hour.
 */
import type { Argv, CommandModule } from 'yargs';
import { CliExit, type CliContext } from '../context.js';

async function store(ctx: CliContext) {
  const { PairingStore } = await import('../lazy/pairing.js');
  return new PairingStore(ctx.home.pairingDir);
}

function age(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** Builds the `pairing` command. */
export function pairingCommand(ctx: CliContext): CommandModule {
  return {
    command: 'pairing <command>',
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
              process.stdout.write(`${JSON.stringify({ pending, approved }, null, 2)}\n`);
              return;
            }
            const now = Date.now();
            const lines = ['Pending requests:'];
            if (pending.length === 0) lines.push('  (none)');
            for (const p of pending)
              lines.push(
                `  ${p.platform}  ${p.userId}${p.userName && p.userName !== p.userId ? ` (${p.userName})` : ''}  asked ${age(now - p.createdAt)} ago, expires in ${age(p.expiresAt - now)}`,
              );
            lines.push('Approved users:');
            if (approved.length === 0) lines.push('  (none)');
            for (const u of approved)
              lines.push(
                `  ${u.platform}  ${u.userId}${u.userName && u.userName !== u.userId ? ` (${u.userName})` : ''}`,
              );
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
            const who = r.userName && r.userName !== r.userId ? `${r.userName} (${r.userId})` : r.userId;
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
        .demandCommand(1),
    handler: () => undefined,
  };
}
