import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigSchema } from '../config/schema.js';
import { applyRenames, planConfig } from './config-map.js';

describe('planConfig', () => {
  it('renames old shapes, keeps unknown keys, leaves out invalid values naming the key', () => {
    const src =
      'provider: openrouter\nmodel: some/model\ncompression:\n  threshold: 9\n  enabled: true\ndisplay:\n  skin: ares\n';
    const { result, text } = planConfig(src, '/py/config.yaml', undefined);
    expect(result.renamed).toEqual(['model → model.default', 'provider → model.provider']);
    expect(result.invalid).toEqual([
      { item: 'compression.threshold', reason: expect.stringMatching(/^9: /) },
    ]);
    expect(result.unknown).toEqual(['display']);
    const data = parse(text!);
    expect(data).toMatchObject({
      _config_version: 2,
      model: { default: 'some/model', provider: 'openrouter' },
      display: { skin: 'ares' },
    });
    expect(data.compression).toEqual({ enabled: true });
    expect(ConfigSchema.safeParse(data).success).toBe(true);
  });

  it('never overwrites a key this home sets (a different value is a conflict) and keeps its comments', () => {
    const target = '_config_version: 2\n# my model\nmodel:\n  default: mine\nagent:\n  max_turns: 10\n';
    const { result, text } = planConfig(
      'model:\n  default: theirs\n  context_length: 1000\nagent:\n  max_turns: 10\n',
      'c',
      target,
    );
    expect(result.conflicts).toEqual(['model.default']);
    expect(result.keys).toEqual(['model.context_length']);
    expect(text).toContain('# my model');
    expect(parse(text!).model).toEqual({ default: 'mine', context_length: 1000 });
  });

  it('writes nothing when everything is already there; refuses broken YAML naming the file', () => {
    expect(planConfig('agent:\n  max_turns: 10\n', 'c', 'agent:\n  max_turns: 10\n').text).toBeUndefined();
    expect(() => planConfig('a: [1,\n', '/py/config.yaml', undefined)).toThrow(
      /^\/py\/config\.yaml: not valid YAML/,
    );
    expect(() => planConfig('- 1\n', '/py/config.yaml', undefined)).toThrow(/mapping of keys/);
  });

  it('does not bring settings that loosen the guards switched on; says how to switch each on', () => {
    const src = [
      'approvals:',
      "  mode: 'off'",
      '  cron_mode: allow',
      '  timeout: 60',
      'command_allowlist: [recursive-delete]',
      'terminal:',
      '  env_passthrough: [AWS_SECRET_ACCESS_KEY]',
      'web:',
      '  allow_private_urls: true',
      'mcp_servers:',
      '  files:',
      '    command: npx',
      '    args: [server-files]',
      '',
    ].join('\n');
    const { result, text } = planConfig(src, 'c', undefined, 'hermes -p work');
    expect(result.guarded.map((g) => g.item)).toEqual([
      'approvals.mode',
      'approvals.cron_mode',
      'web.allow_private_urls',
      'command_allowlist',
      'terminal.env_passthrough',
      'mcp_servers.files',
    ]);
    expect(result.guarded[0]!.reason).toBe(
      '"off" left out; to switch it on here: hermes -p work config set approvals.mode off',
    );
    const data = parse(text!);
    expect(data.approvals).toEqual({ timeout: 60 });
    expect(data.command_allowlist).toBeUndefined();
    expect(data.mcp_servers.files).toEqual({ command: 'npx', args: ['server-files'], enabled: false });
    expect(ConfigSchema.parse(data).approvals.mode).toBe('manual');
  });

  it('moves model.model into model.default', () => {
    const d: Record<string, unknown> = { model: { model: 'x' } };
    expect(applyRenames(d)).toEqual(['model.model → model.default']);
    expect(d).toEqual({ model: { default: 'x' } });
  });
});
