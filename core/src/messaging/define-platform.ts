/**
 * `definePlatform`: the one definition of a platform plugin. A plugin folder
 * (`plugins/platforms/<name>`) exports `platform = definePlatform({...})`, and that definition
 * carries everything the rest of the system needs: the registry name and label, its settings
 * (a zod schema over `platforms.<name>`, with defaults), the secrets it reads from the profile's
 * `.env` (a zod object keyed by variable name), the adapter factory, and the registry facts
 * (allowed-users variable, PII safety, message length, cron home-channel variable, a sender
 * usable without the daemon, the system-prompt hint …).
 *
 * The platform's own schema parses the whole section: keys every platform understands
 * (`enabled`, `allowed_users` … in platform-config.ts) are stripped, not reported. A problem is one
 * line naming the key: `platforms.irc.port: expected a number`, `platforms.irc.server is not
 * set`, `TELEGRAM_BOT_TOKEN is not set in the profile .env`. Secrets are checked in the registry's
 * `check` stage, settings in its `config` stage, so `hermes gateway status` shows which failed.
 */
import { z } from 'zod';
import { lookupSecret } from '../config/secrets.js';
import type { PlatformAdapter, SendOptions, SendResult } from './adapter.js';
import type { CheckResult, PlatformContext, PlatformEntry } from './registry.js';

/** What the factory and the standalone sender of a defined platform get. */
export interface PlatformSetup<Settings, Secrets> {
  /** `platforms.<name>` parsed by the platform's schema (defaults filled). */
  settings: Settings;
  /** The declared secrets, parsed (an optional one that is not set is `undefined`). */
  secrets: Secrets;
  /** Profile, home, the common platform settings (`ctx.config`), log, replay guard. */
  ctx: PlatformContext;
}

/** Registry facts a definition passes through unchanged (see `PlatformEntry`). */
type EntryFacts = Omit<
  PlatformEntry,
  | 'name'
  | 'label'
  | 'createAdapter'
  | 'checkRequirements'
  | 'validateConfig'
  | 'standaloneSender'
  | 'requiredSecrets'
>;

/** The argument of `definePlatform`. */
export interface PlatformDefinition<S extends z.ZodType, K extends z.ZodObject> extends EntryFacts {
  /** config.yaml key and delivery-target name: lower case, `[a-z][a-z0-9_-]*`. */
  name: string;
  /** Human-readable name, e.g. `IRC`. */
  label: string;
  /**
   * Schema of the platform's own keys in `platforms.<name>`, with their defaults. Unknown keys
   * must be stripped (a plain `z.object`), since the section also holds the common keys.
   */
  settings: S;
  /**
   * The `.env` variables the platform reads, as a `z.object` keyed by variable name (optional
   * ones `.optional()`). Only real secrets belong here: every key becomes `requiredSecrets`,
   * whose values the daemon hides in its logs.
   */
  secrets?: K;
  /** Builds the adapter (not yet connected) from parsed settings. May throw. */
  createAdapter(setup: PlatformSetup<z.output<S>, z.output<K>>): PlatformAdapter | Promise<PlatformAdapter>;
  /** Sends a message without a running daemon (cron from the CLI). */
  standaloneSender?(
    setup: PlatformSetup<z.output<S>, z.output<K>>,
    chatId: string,
    text: string,
    opts?: SendOptions,
  ): Promise<SendResult>;
}

/** Result of reading a platform's settings and secrets. */
export type ParsedPlatform<Settings, Secrets> =
  | { ok: true; setup: PlatformSetup<Settings, Secrets> }
  | { ok: false; stage: 'check' | 'config'; error: string };

/** A defined platform: its registry entry plus typed access to its settings. */
export interface DefinedPlatform<S extends z.ZodType, K extends z.ZodObject> extends PlatformEntry {
  /** The settings schema (for docs and tests). */
  readonly settingsSchema: S;
  /** Parses secrets, then settings, of one profile; never throws. */
  parse(ctx: PlatformContext): ParsedPlatform<z.output<S>, z.output<K>>;
}

/** Readable names of zod's expected types, for `expected …` messages. */
const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
};

/**
 * Short messages for the issues zod raises itself (a schema's own message wins over these). A
 * missing value reads `is not set`.
 */
function shortMessage(iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is not set';
      return `expected ${EXPECTED[iss.expected] ?? iss.expected}`;
    case 'too_small':
    case 'too_big': {
      const bound = iss.code === 'too_small' ? iss.minimum : iss.maximum;
      const word = iss.code === 'too_small' ? 'least' : 'most';
      const unit =
        iss.origin === 'string'
          ? ' characters'
          : iss.origin === 'array' || iss.origin === 'set'
            ? ' items'
            : '';
      return iss.inclusive === false
        ? `must be ${iss.code === 'too_small' ? 'more' : 'less'} than ${String(bound)}${unit}`
        : `must be at ${word} ${String(bound)}${unit}`;
    }
    case 'invalid_value':
      return `must be one of ${iss.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
}

/** `platforms.irc` + `['channels', 1]` → `platforms.irc.channels[1]`. */
function keyOf(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/**
 * One line per problem, joined by `; `: `<key> is not set` or `<key>: <message>`.
 * @param prefix the key of the parsed value (`platforms.irc`, or '' for secrets).
 * @param where appended to a missing key (` in the profile .env`).
 */
export function formatSettingsError(error: z.ZodError, prefix: string, where = ''): string {
  return error.issues
    .map((iss) => {
      const key = keyOf(prefix, iss.path).replace(/^\./, '');
      return iss.message === 'is not set' ? `${key} is not set${where}` : `${key}: ${iss.message}`;
    })
    .join('; ');
}

/**
 * Parses `input` with `schema`, short messages for zod's own issues.
 * @returns the value, or the one-line problem (see `formatSettingsError`).
 */
export function parseSettings<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: string,
  where = '',
): { ok: true; value: z.output<S> } | { ok: false; error: string } {
  const r = schema.safeParse(input, { error: shortMessage });
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, error: formatSettingsError(r.error, prefix, where) };
}

/**
 * Builds the registry entry of a platform from its definition: `checkRequirements` parses the
 * declared secrets, `validateConfig` the settings, and `createAdapter` / `standaloneSender` get
 * both parsed. The returned entry is what a plugin exports as `platform`.
 */
export function definePlatform<S extends z.ZodType, K extends z.ZodObject = z.ZodObject>(
  def: PlatformDefinition<S, K>,
): DefinedPlatform<S, K> {
  type Setup = PlatformSetup<z.output<S>, z.output<K>>;
  const secretNames = def.secrets ? Object.keys(def.secrets.shape) : [];
  const readSecrets = (ctx: PlatformContext) => {
    const values: Record<string, string | undefined> = {};
    for (const n of secretNames) values[n] = lookupSecret(ctx.secrets, n);
    return parseSettings(def.secrets ?? z.object({}), values, '', ' in the profile .env');
  };
  const parse = (ctx: PlatformContext): ParsedPlatform<z.output<S>, z.output<K>> => {
    const secrets = readSecrets(ctx);
    if (!secrets.ok) return { ok: false, stage: 'check', error: secrets.error };
    const settings = parseSettings(def.settings, ctx.config, `platforms.${def.name}`);
    if (!settings.ok) return { ok: false, stage: 'config', error: settings.error };
    return {
      ok: true,
      setup: { settings: settings.value, secrets: secrets.value as z.output<K>, ctx },
    };
  };
  const setupOf = (ctx: PlatformContext): Setup => {
    const r = parse(ctx);
    if (!r.ok) throw new Error(r.error);
    return r.setup;
  };
  const { settings: settingsSchema, secrets: _secrets, createAdapter, standaloneSender, ...facts } = def;
  const entry: DefinedPlatform<S, K> = {
    ...facts,
    settingsSchema,
    parse,
    requiredSecrets: secretNames,
    checkRequirements: (ctx): CheckResult => {
      const r = readSecrets(ctx);
      return r.ok ? true : r.error;
    },
    validateConfig: (ctx): CheckResult => {
      const r = parseSettings(settingsSchema, ctx.config, `platforms.${def.name}`);
      return r.ok ? true : r.error;
    },
    createAdapter: async (ctx) => {
      const adapter = await createAdapter(setupOf(ctx));
      // `platforms.<name>.max_message_length` overrides the platform's own limit
      if (ctx.config.max_message_length) adapter.maxMessageLength = ctx.config.max_message_length;
      return adapter;
    },
    ...(standaloneSender
      ? {
          standaloneSender: async (ctx, chatId, text, opts) => {
            const r = parse(ctx);
            if (!r.ok) return { ok: false, error: r.error };
            return standaloneSender(r.setup, chatId, text, opts);
          },
        }
      : {}),
  };
  return entry;
}
