/**
 * The providers table of docs/providers.md, generated from the preset table (a test keeps the
 * document equal to it: presets-doc.test.ts).
 */
import { PROVIDER_PRESETS, type ProviderPreset } from './presets.js';

function endpoint(p: ProviderPreset): string {
  if (p.unsupported) return '—';
  return p.baseURL ? `\`${p.baseURL}\`` : '`model.base_url` (yours)';
}

function keys(p: ProviderPreset): string {
  if (p.unsupported) return '—';
  const vars = p.keyVars.map((v) => `\`${v}\``).join(', ');
  if (p.local) return vars ? `none (optional: ${vars})` : 'none';
  return vars;
}

function models(p: ProviderPreset): string {
  if (p.unsupported) return `not supported here: ${p.unsupported}`;
  const list = p.defaultModels.length > 0 ? p.defaultModels.map((m) => `\`${m}\``).join(', ') : '';
  if (p.modelsEndpoint) return list ? `its \`/models\`; known: ${list}` : 'its `/models`';
  return list || '—';
}

/** The Markdown table: one row per preset (id, aliases, endpoint, keys, base-URL variable, models). */
export function providerTableMarkdown(): string {
  const rows = PROVIDER_PRESETS.map((p) => {
    const aliases = p.aliases.map((a) => `\`${a}\``).join(', ') || '—';
    const wire = p.wire === 'anthropic-messages' ? ' (Anthropic Messages API)' : '';
    const urlVar = p.baseUrlVar ? `\`${p.baseUrlVar}\`` : '—';
    return `| \`${p.id}\` | ${p.label}${wire} | ${aliases} | ${endpoint(p)} | ${keys(p)} | ${urlVar} | ${models(p)} |`;
  });
  return [
    '| id | provider | also accepted | endpoint | key variables | base-URL variable | models |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
