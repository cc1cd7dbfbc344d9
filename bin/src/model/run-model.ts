/**
 * The work of `hermes model` (commands/model.ts parses the line) on the selected profile:
 * - bare: the configured provider and model, then every provider (key set or not, local, hosted,
 *   or not supported here);
 * - `list [PROVIDER]`: the models of a provider (default: the configured one), from its models
 *   endpoint (4 s at most) or its default list;
 * - `set PROVIDER[/MODEL]` (also `hermes model PROVIDER MODEL`): writes `model.provider` and
 *   `model.default` into config.yaml with the config writer (comments and other keys kept); a
 *   provider change drops the old provider's `model.base_url`/`model.api_key_env`.
 */
import {
  applyEdits,
  effectiveProvider,
  listProviderModels,
  loadConfig,
  loadSecrets,
  ModelError,
  normalizeProviderName,
  modelIdProblem,
  parseModelSpec,
  presetFor,
  providerStatuses,
  resolvePrimary,
  setConfigValue,
  switchEdits,
  unknownProviderMessage,
  unsetConfigValue,
} from '../lazy/model.js';
import { CliExit, type CliContext } from '../context.js';
import { hermesCommand } from '../command-form.js';

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** `hermes model`: the current choice and the provider list. */
export function showModel(ctx: CliContext, json: boolean): void {
  const config = loadConfig(ctx.home);
  const secrets = loadSecrets(ctx.home);
  const statuses = providerStatuses(config, secrets);
  const m = config.model;
  if (json) {
    out(
      JSON.stringify(
        { provider: m.provider, model: m.default, base_url: m.base_url ?? null, providers: statuses },
        null,
        2,
      ),
    );
    return;
  }
  const inUse = effectiveProvider(config, secrets);
  const picked = m.provider === 'auto' ? (inUse === 'auto' ? ' (none usable yet)' : ` (uses ${inUse})`) : '';
  out(`Provider: ${m.provider}${picked}${m.base_url ? ` (${m.base_url})` : ''}`);
  out(`Model:    ${m.default || '(none set)'}`);
  out('');
  const width = Math.max(...statuses.map((s) => s.id.length));
  for (const s of statuses) {
    const preset = presetFor(s.id)!;
    const state =
      s.kind === 'unsupported'
        ? 'not supported here'
        : s.kind === 'local'
          ? `local, ${preset.baseURL}`
          : s.keySet
            ? `key set (${s.keyVar})`
            : `no key (${preset.keyVars.join(' or ')})`;
    out(`${s.current ? '●' : ' '} ${s.id.padEnd(width)}  ${s.label} — ${state}`);
  }
  out('');
  out(
    `Switch: ${hermesCommand()} model set PROVIDER/MODEL · models: ${hermesCommand()} model list PROVIDER · keys: ${hermesCommand()} auth add PROVIDER`,
  );
}

function providerId(name: string): string {
  const id = normalizeProviderName(name);
  if (!id || id === 'auto') throw new CliExit(1, `model: ${unknownProviderMessage(name)}`);
  return id;
}

/** `hermes model list [PROVIDER]`: one model id a line (a note on stderr when from the default list). */
export async function listModels(
  ctx: CliContext,
  provider: string | undefined,
  json: boolean,
): Promise<void> {
  const config = loadConfig(ctx.home);
  const id = provider ? providerId(provider) : config.model.provider;
  let listing;
  try {
    listing = await listProviderModels(id, { config, secrets: loadSecrets(ctx.home) });
  } catch (err) {
    throw new CliExit(1, (err as Error).message);
  }
  if (json) return out(JSON.stringify(listing, null, 2));
  if (listing.source === 'defaults') {
    process.stderr.write(
      `${listing.provider}: known models${listing.error ? ` (its models endpoint: ${listing.error})` : ''}\n`,
    );
  }
  if (listing.models.length === 0) process.stderr.write(`${listing.provider}: no models listed\n`);
  for (const model of listing.models) out(model);
}

/**
 * `hermes model set PROVIDER[/MODEL]` (or PROVIDER MODEL): validates and writes the switch.
 * @throws CliExit for an unknown or unsupported provider, or when no model can be named.
 */
export function setModel(ctx: CliContext, spec: string, model?: string): void {
  const config = loadConfig(ctx.home);
  let parsed;
  try {
    parsed =
      model !== undefined ? { provider: providerId(spec), model } : parseModelSpec(spec, undefined, true);
  } catch (err) {
    if (err instanceof CliExit) throw err;
    throw new CliExit(1, `model: ${unknownProviderMessage(spec.split('/')[0]!)}`);
  }
  const problem = parsed.model ? modelIdProblem(parsed.model) : undefined;
  if (problem) throw new CliExit(1, `model: ${problem}`);
  const preset = presetFor(parsed.provider!);
  if (preset?.unsupported) throw new CliExit(1, `Provider "${preset.id}": ${preset.unsupported}`);
  const edits = switchEdits(config, parsed);
  const next = applyEdits(config, edits);
  if (!next.model.default)
    throw new CliExit(
      1,
      `name a model: ${hermesCommand()} model set ${parsed.provider}/MODEL (${hermesCommand()} model list ${parsed.provider})`,
    );
  for (const e of edits) {
    if (e.value === undefined) unsetConfigValue(ctx.home, e.key);
    else setConfigValue(ctx.home, e.key, e.value);
  }
  const removed = edits.filter((e) => e.value === undefined).map((e) => e.key);
  out(
    `Model: ${next.model.default} on ${next.model.provider} (written to ${ctx.home.configFile})` +
      (removed.length > 0 ? `; removed ${removed.join(' and ')} of the previous provider` : ''),
  );
  try {
    resolvePrimary(next, { secrets: loadSecrets(ctx.home), envFile: ctx.home.envFile });
  } catch (err) {
    if (err instanceof ModelError) process.stderr.write(`warning: ${err.message}\n`);
    else throw err;
  }
}
