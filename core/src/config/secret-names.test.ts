import { describe, expect, it } from 'vitest';
import { isSecretName } from './secret-names.js';

describe('isSecretName', () => {
  it('knows config keys, environment variables and headers that hold credentials', () => {
    for (const k of [
      'api_key',
      'apiKey',
      'API-KEY',
      'apikey',
      'token',
      'bot_token',
      'auth_token',
      'password',
      'passwd',
      'client_secret',
      'auth',
      'OPENAI_API_KEY',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_ACCESS_KEY_ID',
      'AWS_SESSION_TOKEN',
      'SSH_PRIVATE_KEY',
      'JWT_SIGNING_KEY',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'PGPASSWORD',
      'DB_PASSPHRASE',
      'GITHUB_PAT',
      'SENTRY_DSN',
      'Authorization',
      'Proxy-Authorization',
      'Cookie',
      'X-Api-Key',
    ])
      expect(isSecretName(k), k).toBe(true);
  });

  it('does not take names of secrets, counts or look-alikes for credentials', () => {
    for (const k of [
      'api_key_env',
      'token_env',
      'secret_name',
      'max_tokens',
      'tokenizer',
      'TOKENIZERS_PARALLELISM',
      'KEYBOARD',
      'sort_key',
      'SSH_AUTH_SOCK',
      'author',
      'default',
      'PATH',
      'HTTPS_PROXY',
      'Content-Type',
      '',
    ])
      expect(isSecretName(k), k).toBe(false);
  });
});
