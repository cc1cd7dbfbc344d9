import { describe, expect, it } from 'vitest';
import { formatConfigYaml, maskSecretValues } from './config-show.js';
import { ConfigSchema } from './schema.js';
import { isSecretName } from './secret-names.js';

describe('config show', () => {
  it('knows secret-looking key names, but not names of secrets or counts', () => {
    for (const k of [
      'api_key',
      'apiKey',
      'API-KEY',
      'token',
      'bot_token',
      'password',
      'client_secret',
      'auth',
    ])
      expect(isSecretName(k), k).toBe(true);
    for (const k of ['api_key_env', 'max_tokens', 'tokenizer', 'default', 'author', 'secret_name'])
      expect(isSecretName(k), k).toBe(false);
  });

  it('masks secret values at any depth, in arrays too, and keeps empty ones visible', () => {
    expect(
      maskSecretValues({ a: { token: 'x', list: [{ password: 'p', n: 1 }] }, api_key: '', secret: null }),
    ).toEqual({
      a: { token: '<hidden>', list: [{ password: '<hidden>', n: 1 }] },
      api_key: '',
      secret: null,
    });
  });

  it('prints the defaulted config as YAML', () => {
    const text = formatConfigYaml(ConfigSchema.parse({ my: { bot_token: 'abc' } }));
    expect(text).toContain('approvals:\n  mode: manual\n');
    expect(text).toContain('my:\n  bot_token: <hidden>\n');
    expect(text).not.toContain('abc');
  });
});
