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

// Only types from `@hermes/core/protocol` (its values load zod), and no import matching `patterns`
// (no-restricted-imports patterns); `message` says why.
const protocolTypesOnly = (message, patterns) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: [{ name: '@hermes/core/protocol', allowTypeImports: true, message }],
      ...(patterns ? { patterns } : {}),
    },
  ],
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
    // Outside core, the engine is reached only through its named entry points (core/package.json
    // "exports": `@hermes/core`, `@hermes/core/<area>`, `@hermes/core/protocol`,
    // `@hermes/core/constants`, `@hermes/core/testing`); a file inside an area is private to core.
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    ignores: ['core/**'],
    rules: {
      // a dynamic import of an entry point makes the whole area a bundle entry, loaded in full by
      // every static import of it: import a small local module that re-exports what is needed
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^@hermes\\/core/]',
          message: 'Lazy-load a local module that re-exports what you need (see bin/src/lazy/README.md)',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@hermes/core/[^/]+/',
              message:
                'Import the engine only through its named entry points ("Core\'s public API" in docs/architecture.md)',
            },
          ],
        },
      ],
    },
  },
  {
    // The TUI bundle carries no engine code and no zod: types from `@hermes/core/protocol`, run-time
    // values from the zod-free `@hermes/core/constants`, the daemon through `@hermes/client`
    // (checked for real by ui-tui/src/bundle-deps.test.ts).
    files: ['ui-tui/**/*.ts', 'ui-tui/**/*.tsx'],
    ignores: ['ui-tui/**/*.test.ts', 'ui-tui/**/*.test.tsx', 'ui-tui/src/testing/**'],
    rules: {
      ...protocolTypesOnly(
        'ui-tui takes only types from @hermes/core/protocol (its values load zod); values from @hermes/core/constants',
        [
          {
            regex: '^@hermes/(?!(core/protocol|core/constants|client|client/discovery)$)',
            message:
              'ui-tui imports only @hermes/client, @hermes/core/constants and types of @hermes/core/protocol',
          },
        ],
      ),
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
              regex: '^@hermes/(?!(core/protocol|core/constants|client|client/discovery|client/testing)$)',
              message:
                'ui-tui tests import only @hermes/client(/testing) and @hermes/core/protocol or constants',
            },
          ],
        },
      ],
    },
  },
  // the client: the protocol's types and zod-free values, ws and node (it runs inside the TUI)
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!(ws|@hermes/core/protocol|@hermes/core/constants|node:.*|\\.{1,2}/.*)$)',
              message:
                '@hermes/client imports only @hermes/core/protocol (types), @hermes/core/constants, ws and node built-ins',
            },
          ],
        },
      ],
      ...protocolTypesOnly(
        'only types from the protocol at run time (its values load zod); values from @hermes/core/constants',
      ),
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
              regex: '^(?!(ws|vitest|@hermes/core/protocol|@hermes/core/constants|node:.*|\\.{1,2}/.*)$)',
              message: '@hermes/client tests import only the protocol, ws, vitest and node built-ins',
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': 'off',
    },
  },
);
