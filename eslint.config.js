// Lint: ESLint for what can be wrong, Prettier (`.prettierrc.json`) for how it looks; `npm test` runs both
// (its `lint` suite) and the tree is clean under them. typescript-eslint's recommended rules for all
// TypeScript; eslint-plugin-lit and eslint-plugin-wc for the widget, whose elements must follow Lit's and
// the custom-element rules a shop's page relies on (no constructor side effects, no DOM in constructors).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

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
