// Lint: ESLint for what can be wrong, Prettier (`.prettierrc.json`) for how it looks; `npm test` runs both
// (its `lint` suite) and the tree is clean under them. typescript-eslint's recommended rules for all
// TypeScript, and its two type-aware rules on promises for all but the tests (below); eslint-plugin-lit
// and eslint-plugin-wc for the widget, whose elements must follow Lit's and the custom-element rules a
// shop's page relies on (no constructor side effects, no DOM in constructors).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';
import { fileURLToPath } from 'node:url';

/** Where the TypeScript projects are found from (tsconfig.json and the tsconfig of each part). */
const root = fileURLToPath(new URL('.', import.meta.url));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.cache/**',
      '.tryon-cache/**',
      'test/e2e/screenshots/**',
      // PHP and Liquid are not JavaScript; the Shopify extension's built assets are generated.
      'integrations/**/assets/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // Unused names are mistakes, except the deliberate `_` of a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // A promise nobody awaits loses its rejection: the shopper sees nothing happen, the shop's log
    // gets an unhandled rejection. These rules need the types (each file in the program of its part,
    // tsconfig.json), so they look only at the code that ships or runs the project: on the tests as
    // well they would more than double `npm run lint`'s time (docs/performance.md, "Type check and
    // lint"), and node:test's `describe` and `it` return promises that nobody needs to await. `void`
    // marks a promise deliberately not awaited: it handles its own failure, or nothing waits for it.
    files: [
      'widget/**/*.ts',
      'proxy/**/*.ts',
      'sandbox/**/*.ts',
      'scripts/**/*.ts',
      'demo/**/*.ts',
      'integrations/**/*.ts',
      'vite.config.ts',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Chai's property assertions (`expect(x).to.be.true`) are expressions by design; JSON answers
    // are read loosely in tests, while the code under test stays strictly typed.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The WordPress plugin's scripts run beside WooCommerce's jQuery.
    files: ['integrations/woocommerce/**/*.js'],
    languageOptions: { globals: { jQuery: 'readonly' } },
  },
  {
    files: ['widget/**/*.ts', 'test/widget/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['widget/**/*.ts'],
    ...wc.configs['flat/recommended'],
  },
);
