// ESLint over every package's sources, tests, scripts and benchmarks. TypeScript gets typescript-eslint's
// type-checked rules (the reason for ESLint over Biome: rules that read types exist only here); the .mjs and
// .js scripts get the plain recommended rules. Formatting is Prettier's (npm run lint checks both).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The globals of the Node that runs ESLint: the scripts and benchmarks run on the same Node. */
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'packages/server/console/**', 'packages/*/test/fixtures/**', 'docs/**', 'packages/web/vite.config.ts'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // The two programs that hold every TypeScript file: the console's, and the tests' (which holds every other
      // package's sources, tests, scripts and examples). The project service would look for a tsconfig.json
      // beside each test folder; these two build each file's types once.
      parserOptions: { project: ['tsconfig.tests.json', 'packages/web/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A name starting with _ is unused on purpose (a parameter a signature needs, a field a rest pattern leaves out).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['packages/*/test/**/*.ts', 'examples/*/test/**/*.ts'],
    rules: {
      // node:test's describe() and it() return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      // Tests read the API's answers untyped (ApiResponse's body is any) on purpose: their assertions are the type check.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
  },
);
