// Lint rules for every package: typescript-eslint's recommended set, plus the layering rules of
// docs/architecture.md (lower layers never import higher ones).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * The protocol files that import nothing (no zod): the TUI takes its run-time values from these,
 * by deep path, and only types from `@hermes/core/protocol`.
 */
const ZOD_FREE_PROTOCOL = [
  'constants',
  'limits',
  'approval-arming',
  'approval-choices',
  'slash-commands',
  'tool-display.generated',
];

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
  layer(['core/**/*.ts'], ['@hermes/client', '@hermes/tui-gateway', '@hermes/ui-tui', '@hermes/cli']),
  layer(['core/src/protocol/**/*.ts'], ['@hermes/core', '../*', 'yaml', 'better-sqlite3', 'openai', 'execa']),
  layer(['tui-gateway/**/*.ts'], ['@hermes/ui-tui', '@hermes/cli']),
  {
    files: ['ui-tui/**/*.ts', 'ui-tui/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          // types only: a value import would bring zod into the TUI bundle
          paths: [
            {
              name: '@hermes/core/protocol',
              allowTypeImports: true,
              message: `values come from a zod-free protocol file (${ZOD_FREE_PROTOCOL.join(', ')})`,
            },
          ],
          // gitignore-style groups cannot re-allow a path under a banned one, hence a regex
          patterns: [
            {
              regex: `^@hermes/(?!core/protocol(/(${ZOD_FREE_PROTOCOL.map((f) => f.replace('.', '\\.')).join('|')}))?$|client(/discovery)?$)`,
              message:
                'ui-tui imports only @hermes/client, @hermes/core/protocol (types) and its zod-free files; see docs/architecture.md',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['ui-tui/**/*.test.ts', 'ui-tui/**/*.test.tsx', 'ui-tui/src/testing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^@hermes/(?!core/protocol(/slash-commands|/tool-display\\.generated)?$|client(/discovery|/testing)?$)',
              message: 'ui-tui tests import only @hermes/client(/testing) and @hermes/core/protocol',
            },
          ],
        },
      ],
    },
  },
  // the client: only the protocol (types only at run time: no zod in the TUI), ws and node
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!(ws|@hermes/core/protocol|node:.*|\\.{1,2}/.*)$)',
              message: '@hermes/client imports only @hermes/core/protocol, ws and node built-ins',
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@hermes/core/protocol',
              allowTypeImports: true,
              message: 'only types from the protocol at run time (its values load zod)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!(ws|vitest|@hermes/core/protocol|node:.*|\\.{1,2}/.*)$)',
              message: '@hermes/client tests import only the protocol, ws, vitest and node built-ins',
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': 'off',
    },
  },
);
