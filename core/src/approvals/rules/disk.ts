/**
 * Disks and devices, by any tool. The floor: formatting (`mkfs*`, `mkswap` on a device), `dd` onto
 * a block device, writing a block device any other way (`> /dev/sda`, `tee`, `cp`, `curl -o`,
 * `ddrescue`, `bmaptool copy`), and wiping or erasing one (`wipefs`, `blkdiscard`, `shred`,
 * `sgdisk --zap-all`, `cryptsetup luksFormat`, `diskutil eraseDisk`, `lvremove` …). Asked:
 * formatting an image file, repartitioning, reading a raw disk (`dd if=/dev/sda`,
 * `cat /dev/nvme0n1 > x`: the whole disk's data, other users' files and deleted ones included),
 * and writing other device files (`/dev/ttyUSB0`, `/dev/watchdog`).
 *
 * Targets: the device (or image file) paths.
 */
import type { ShellWord, SimpleCommand } from '../shell/analyze.js';
import { parseArgs, pathTargets, programName, subcommand, writes, type Write } from './argv.js';
import { HARMLESS_DEVICE, isBlockDevice } from './programs.js';
import type { CommandRule, RuleContext } from './types.js';

/** The block devices `words` name (`ctx.paths`, symlinks such as `/dev/disk/by-id/…` resolved). */
function devicesIn(words: readonly ShellWord[], ctx: RuleContext): string[] {
  const out = new Set<string>();
  for (const w of words) for (const p of ctx.paths(w)) if (isBlockDevice(p)) out.add(p);
  return [...out];
}

/** Non-option words of a command (option values included: device tools rarely take path values). */
const plainWords = (cmd: SimpleCommand): ShellWord[] =>
  cmd.argv.slice(1).filter((w) => !w.value.startsWith('-'));

const FORMATTERS = /^(?:mkfs(?:\.[\w.-]+)?|mke2fs|mkdosfs|mkntfs|mkexfatfs|mkswap|newfs(?:_\w+)?|mkfs_\w+)$/;

/** `mkfs`'s verdict: a device or an unknowable word (floor), or only image files (asked). */
function formatKind(cmd: SimpleCommand, ctx: RuleContext): { floor: boolean; targets: string[] } | null {
  if (!FORMATTERS.test(programName(cmd))) return null;
  const words = plainWords(cmd);
  const devices = devicesIn(words, ctx);
  if (devices.length > 0) return { floor: true, targets: devices };
  if (words.some((w) => w.substitution || (!w.literal && ctx.paths(w).length === 0)))
    return { floor: true, targets: pathTargets(ctx, words) };
  const files = words.filter((w) => /[/.]/.test(w.value));
  if (files.length === 0) return words.length > 0 ? { floor: true, targets: pathTargets(ctx, words) } : null;
  return { floor: false, targets: pathTargets(ctx, files) };
}

const MKFS: CommandRule = {
  key: 'mkfs',
  description: 'format a file system (mkfs)',
  floor: true,
  match: (cmd, ctx) => {
    const k = formatKind(cmd, ctx);
    return k?.floor ? k.targets : null;
  },
};

const MKFS_IMAGE: CommandRule = {
  key: 'mkfs-image',
  description: 'format an image file as a file system or swap (mkfs on a file)',
  match: (cmd, ctx) => {
    const k = formatKind(cmd, ctx);
    return k && !k.floor ? k.targets : null;
  },
};

/** `dd`'s `of=` and `if=` words. */
function ddOperand(cmd: SimpleCommand, key: 'of' | 'if'): ShellWord | undefined {
  if (programName(cmd) !== 'dd') return undefined;
  const w = cmd.argv.find((x) => x.value.startsWith(`${key}=`));
  return w ? { ...w, value: w.value.slice(key.length + 1), raw: w.value.slice(key.length + 1) } : undefined;
}

const DD_TO_DEVICE: CommandRule = {
  key: 'dd-to-device',
  description: 'dd writing to a device',
  floor: true,
  match(cmd, ctx) {
    const of = ddOperand(cmd, 'of');
    if (!of) return null;
    const devices = devicesIn([of], ctx);
    return devices.length > 0 ? devices : null;
  },
};

/** The ways of writing a file that also write a device's data (not `rm`, `chmod`, `ln` of the node). */
const DATA_WRITES = new Set<Write['how']>(['redirect', 'tee', 'copy', 'download', 'edit']);

/** The words a command writes data to, beyond `writes()`: `ddrescue IN OUT`, `bmaptool copy IMG DEV`. */
function dataWrites(cmd: SimpleCommand): ShellWord[] {
  const out = writes(cmd)
    .filter((w) => DATA_WRITES.has(w.how))
    .map((w) => w.word);
  const name = programName(cmd);
  const ops = parseArgs(cmd.argv, { valued: 'bcdeiJKlmMoOpsTrS' }).operands;
  if (name === 'ddrescue' && ops.length >= 2) out.push(ops[1]!);
  if (name === 'bmaptool' && subcommand(cmd).sub === 'copy' && ops.length >= 3) out.push(ops.at(-1)!);
  return out;
}

const WRITE_BLOCK_DEVICE: CommandRule = {
  key: 'write-block-device',
  description: 'write onto a block device (a disk or partition)',
  floor: true,
  match(cmd, ctx) {
    const devices = devicesIn(dataWrites(cmd), ctx);
    return devices.length > 0 ? devices : null;
  },
};

/** Wiping tools: program → when its use erases (given its words). */
const WIPERS: Record<string, (cmd: SimpleCommand) => boolean> = {
  wipefs: (c) => !c.argv.some((w) => w.value === '-n' || w.value === '--no-act'),
  blkdiscard: () => true,
  shred: () => true,
  badblocks: (c) => c.argv.some((w) => /^-[a-zA-Z]*[wn]/.test(w.value)),
  hdparm: (c) =>
    c.argv.some((w) => /^--(?:security-erase|trim-sector-ranges|write-sector|dco-restore)/.test(w.value)),
  nvme: (c) => /^(?:format|sanitize)$/.test(subcommand(c).sub),
  sgdisk: (c) => c.argv.some((w) => /^(?:-[a-zA-Z]*[Zzo]|--zap(?:-all)?|--clear)$/.test(w.value)),
  sfdisk: (c) => c.argv.some((w) => w.value === '--delete'),
  cryptsetup: (c) =>
    /^(?:luksformat|erase|lukserase|reencrypt)$/.test(subcommand(c, { valued: 'cdhklsSt' }).sub),
  mdadm: (c) => c.argv.some((w) => w.value === '--zero-superblock'),
  lvremove: () => true,
  vgremove: () => true,
  pvremove: () => true,
};

/** Tools that erase whatever they are given (no device path needed to be sure). */
const ALWAYS_DEVICE = new Set(['wipefs', 'blkdiscard', 'lvremove', 'vgremove', 'pvremove']);

const WIPE_DEVICE: CommandRule = {
  key: 'wipe-device',
  description: 'wipe, erase or destroy a disk, partition table or volume',
  floor: true,
  match(cmd, ctx) {
    const name = programName(cmd);
    if (name === 'diskutil') {
      const sub = subcommand(cmd).sub;
      const erase = /^(?:erase\w*|zerodisk|randomdisk|secureerase|partitiondisk|reformat|apfs)$/.test(sub);
      if (!erase || (sub === 'apfs' && !/^delete/i.test(cmd.argv[2]?.value ?? ''))) return null;
      return plainWords(cmd).map((w) => w.value);
    }
    if (name === 'zpool')
      return /^(?:destroy|labelclear)$/.test(subcommand(cmd).sub)
        ? plainWords(cmd).map((w) => w.value)
        : null;
    const erases = WIPERS[name];
    if (!erases || !erases(cmd)) return null;
    const devices = devicesIn(plainWords(cmd), ctx);
    if (devices.length > 0) return devices;
    return ALWAYS_DEVICE.has(name) ? pathTargets(ctx, plainWords(cmd)) : null;
  },
};

/** Read-only uses of the partitioning tools. */
const LISTING =
  /^(?:-l|--list|-d|--dump|-J|--json|-s|--show-size|-p|--print|-i|--info|-v|--verify|print|unit)$/;
const PARTITIONERS = new Set(['fdisk', 'sfdisk', 'gdisk', 'cgdisk', 'cfdisk', 'parted', 'sgdisk', 'gparted']);

const PARTITION_DISK: CommandRule = {
  key: 'partition-disk',
  description: 'repartition a disk (fdisk, parted, sgdisk …)',
  match(cmd, ctx) {
    if (!PARTITIONERS.has(programName(cmd))) return null;
    if (
      cmd.argv.slice(1).some((w) => LISTING.test(w.value)) &&
      !cmd.argv.some((w) => /^(?:mk|rm|resize)/.test(w.value))
    )
      return null;
    const devices = devicesIn(plainWords(cmd), ctx);
    return devices.length > 0 ? devices : null;
  },
};

/** Programs that read the contents of the files they are given. */
const CONTENT_READERS = new Set([
  'cat',
  'tac',
  'head',
  'tail',
  'less',
  'more',
  'pv',
  'xxd',
  'hexdump',
  'hd',
  'od',
  'strings',
  'grep',
  'rg',
  'gzip',
  'pigz',
  'bzip2',
  'xz',
  'zstd',
  'lz4',
  'base64',
  'cp',
  'rsync',
  'scp',
  'tar',
  'cpio',
  'nc',
  'ncat',
  'socat',
  'ddrescue',
  'split',
  'curl',
  'partclone',
  'partimage',
  'fsarchiver',
]);

const RAW_DISK_READ: CommandRule = {
  key: 'raw-disk-read',
  description: "read a raw disk (every file on it, other users' and deleted ones included)",
  match(cmd, ctx) {
    const words: ShellWord[] = [];
    const input = ddOperand(cmd, 'if');
    if (input) words.push(input);
    for (const r of cmd.redirects) if (r.op === '<' && r.target && !r.commands) words.push(r.target);
    if (CONTENT_READERS.has(programName(cmd))) {
      const written = new Set(dataWrites(cmd));
      words.push(...plainWords(cmd).filter((w) => !written.has(w)));
      for (const w of cmd.argv)
        if (/^-[a-zA-Z]*T$/.test(w.value) || w.value === '--upload-file') words.push(w);
    }
    const devices = devicesIn(words, ctx);
    return devices.length > 0 ? devices : null;
  },
};

const WRITE_DEVICE: CommandRule = {
  key: 'write-device',
  description: 'write to a device file',
  match(cmd, ctx) {
    const out = new Set<string>();
    const of = ddOperand(cmd, 'of');
    if (of && (of.substitution || ctx.paths(of).length === 0)) out.add(`?${of.raw}`);
    for (const w of [...dataWrites(cmd), ...(of ? [of] : [])]) {
      for (const p of ctx.paths(w)) {
        if (p.startsWith('/dev/') && !HARMLESS_DEVICE.test(p) && !isBlockDevice(p)) out.add(p);
      }
    }
    return out.size > 0 ? [...out] : null;
  },
};

/** Formats, device writes and wipes of the floor first, then the asked classes. */
export const DISK_RULES: readonly CommandRule[] = [
  MKFS,
  DD_TO_DEVICE,
  WRITE_BLOCK_DEVICE,
  WIPE_DEVICE,
  MKFS_IMAGE,
  PARTITION_DISK,
  RAW_DISK_READ,
  WRITE_DEVICE,
];
