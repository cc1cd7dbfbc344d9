/**
 * The work of `hermes config` (commands/config.ts parses the line): show, get, set, unset, path,
 * check, allowlist on the selected profile's config.yaml, through `@hermes/core/config`.
 */
import { entryLine, pickEntry, removeAllowlistEntry } from '@hermes/core/approvals';
import {
  getConfigValue,
  loadConfig,
  loadConfigWithWarnings,
  parseConfigValue,
  setConfigValue,
  unknownKeysAt,
  unsetConfigValue,
  formatConfigYaml,
  HIDDEN_VALUE,
  maskSecretValues,
  isSecretName,
} from '@hermes/core/config';
import type { ConfigAction } from '../commands/config.js';
import { CliExit, type CliContext } from '../context.js';
import { hermesCommand } from '../command-form.js';

/** Parsed `hermes config` line. */
export interface ConfigArgs {
  action: ConfigAction;
  key?: string;
  value?: string;
  json: boolean;
  force: boolean;
}

const USAGE = 'Run "hermes config --help" for usage.';

/**
 * Runs one `hermes config` sub-command; output on stdout, warnings on stderr.
 * @throws CliExit for a usage error or a refused change; ConfigError for a broken config.yaml.
 */
export function runConfig(ctx: CliContext, args: ConfigArgs): void {
  const file = ctx.home.configFile;
  const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  switch (args.action) {
    case 'path':
      return out(file);
    case 'check': {
      const { warnings } = loadConfigWithWarnings(ctx.home); // a broken file throws ConfigError → exit 1
      for (const w of warnings) out(`warning: ${w.message}`);
      const unknown = warnings.filter((w) => w.kind === 'unknown_key').length;
      const ignored = warnings.length - unknown;
      const found = [
        ...(unknown > 0 ? [`${unknown} unknown key(s)`] : []),
        ...(ignored > 0 ? [`${ignored} ignored allowlist ${ignored === 1 ? 'entry' : 'entries'}`] : []),
      ];
      return out(found.length === 0 ? `${file}: OK` : `${file}: valid, ${found.join(', ')}`);
    }
    case 'allowlist':
      return allowlist(ctx, args, out);
    case 'show':
    case 'get': {
      const config = loadConfig(ctx.home);
      if (args.action === 'show' && args.key !== undefined)
        throw new CliExit(
          1,
          `config show takes no KEY (to read one key: ${hermesCommand()} config get ${args.key})`,
        );
      if (args.key === undefined)
        return out(args.json ? JSON.stringify(maskSecretValues(config), null, 2) : formatConfigYaml(config));
      const raw = getConfigValue(config, args.key);
      if (raw === undefined)
        throw new CliExit(
          1,
          `no config key "${args.key}" in ${file} (${hermesCommand()} config show lists them all)`,
        );
      const secret = isSecretName(args.key.split('.').at(-1)!) && raw !== null && raw !== '';
      const shown = secret ? HIDDEN_VALUE : maskSecretValues(raw);
      return out(
        args.json || (typeof shown === 'object' && shown !== null)
          ? JSON.stringify(shown, null, 2)
          : String(shown),
      );
    }
    case 'set':
      return setKey(ctx, args, out);
    case 'unset': {
      if (args.key === undefined) throw new CliExit(1, `config unset needs a KEY. ${USAGE}`);
      if (args.value !== undefined)
        throw new CliExit(1, `config unset takes only a KEY (got a value "${args.value}"). ${USAGE}`);
      if (!unsetConfigValue(ctx.home, args.key))
        throw new CliExit(1, `no key "${args.key}" in ${file}; nothing removed`);
      return out(`${args.key} removed from ${file} (it now has its default value)`);
    }
  }
}

/** `config allowlist [list] | remove N|TEXT | clear`: the entries `always` approved. */
function allowlist(ctx: CliContext, args: ConfigArgs, out: (text: string) => void): void {
  const file = ctx.home.configFile;
  const list = loadConfig(ctx.home).command_allowlist;
  switch (args.key ?? 'list') {
    case 'list':
      if (list.length === 0) return out(`command_allowlist in ${file} is empty`);
      return out([`command_allowlist in ${file}:`, ...list.map((t, i) => entryLine(i + 1, t))].join('\n'));
    case 'remove': {
      if (args.value === undefined)
        throw new CliExit(1, `config allowlist remove needs N or the entry's text. ${USAGE}`);
      const picked = pickEntry([], list, args.value);
      if ('error' in picked)
        throw new CliExit(1, `${picked.error} (${hermesCommand()} config allowlist lists them)`);
      removeAllowlistEntry(ctx.home, picked.text);
      return out(`removed from command_allowlist: ${picked.text}`);
    }
    case 'clear':
      setConfigValue(ctx.home, 'command_allowlist', []);
      return out(
        `command_allowlist in ${file} cleared (${list.length} entr${list.length === 1 ? 'y' : 'ies'} removed)`,
      );
    default:
      throw new CliExit(
        1,
        `config allowlist takes list, remove N|TEXT or clear (got "${args.key}"). ${USAGE}`,
      );
  }
}

function setKey(ctx: CliContext, args: ConfigArgs, out: (text: string) => void): void {
  const file = ctx.home.configFile;
  const { key } = args;
  if (key === undefined) throw new CliExit(1, `config set needs a KEY and a VALUE. ${USAGE}`);
  if (args.value === undefined) throw new CliExit(1, `config set ${key} needs a VALUE. ${USAGE}`);
  const value = parseConfigValue(args.value);
  if (key === 'model.default' && (value === null || (typeof value === 'string' && value.trim() === ''))) {
    throw new CliExit(
      1,
      `model.default cannot be empty: give a model id (${hermesCommand()} config set model.default MODEL_ID); ` +
        `to clear it on purpose, run ${hermesCommand()} config unset model.default`,
    );
  }
  const unknown = unknownKeysAt(key, value);
  if (unknown.length > 0 && !args.force) {
    const list = unknown
      .map((u) => `"${u.path}"${u.suggestion ? ` (did you mean "${u.suggestion}"?)` : ''}`)
      .join(', ');
    throw new CliExit(
      1,
      `unknown config key ${list}; nothing written to ${file}. ` +
        `Fix the key (${hermesCommand()} config show lists the known ones), or pass --force to write it anyway`,
    );
  }
  setConfigValue(ctx.home, key, value);
  out(`${key} set in ${file}`);
  // written with --force: say again that Hermes does not use it, as `config check` would
  for (const w of loadConfigWithWarnings(ctx.home).warnings) {
    if (unknown.some((u) => u.path === w.key)) process.stderr.write(`hermes: warning: ${w.message}\n`);
  }
}
