// Lint rules for every package: typescript-eslint's recommended set, plus the layering rules of
// docs/architecture.md (lower layers never import higher ones).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const layer = (files, banned) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: banned.map((group) => ({
          group: [group, `${group}/*`],
          message: 'Layering: see "Packages and layers" in docs/architecture.md',
        })),
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer(['core/**/*.ts'], ['@hermes/tui-gateway', '@hermes/ui-tui', '@hermes/cli']),
  layer(['core/src/protocol/**/*.ts'], ['@hermes/core', '../*', 'yaml', 'better-sqlite3', 'openai', 'execa']),
  layer(['tui-gateway/**/*.ts'], ['@hermes/ui-tui', '@hermes/cli']),
  {
    files: ['ui-tui/**/*.ts', 'ui-tui/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // gitignore-style groups cannot re-allow a path under a banned one, hence a regex;
          // protocol/slash-commands and protocol/tool-display.generated are zod-free, so the TUI
          // may import their values
          patterns: [
            {
              regex: '^@hermes/(?!core/protocol(/slash-commands|/tool-display\\.generated)?$)',
              message:
                'ui-tui imports only @hermes/core/protocol (types) and its zod-free files; see docs/architecture.md',
            },
          ],
        },
      ],
    },
  },
);
