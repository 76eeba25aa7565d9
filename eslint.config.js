// ESLint over every package's sources, tests, scripts and benchmarks. TypeScript gets typescript-eslint's
// type-checked rules (the reason for ESLint over Biome: rules that read types exist only here); the .mjs and
// .js scripts get the plain recommended rules. Formatting is Prettier's (npm run lint checks both).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The globals of the Node that runs ESLint: the scripts and benchmarks run on the same Node. */
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'packages/server/console/**',
      'packages/*/test/fixtures/**',
      'docs/**',
      'packages/web/vite.config.ts',
    ],
  },
  // A disable comment that silences nothing is an error: each one left is needed, and says why after --.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    // Prettier wraps the code at 140 columns; this keeps the comments and the strings, which it does not wrap, within them
    // too: a long string or template is written as a concatenation of pieces. A URL or a regular expression may pass the
    // limit, as cutting one would hide what it matches or where it leads.
    rules: {
      'max-len': [
        'error',
        { code: 140, ignoreUrls: true, ignoreStrings: false, ignoreTemplateLiterals: false, ignoreRegExpLiterals: true },
      ],
    },
  },
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
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An async function that awaits nothing still turns a throw into a rejection, which its callers (routes, interfaces
      // that promise a Promise) rely on; dropping the async to please the rule would change that.
      '@typescript-eslint/require-await': 'off',
      // Preact ignores what an event handler returns, so the console's handlers may be async (they report their own failures).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // The adapters' capabilities are plain functions that the contract declares as methods; none of them uses this.
      '@typescript-eslint/unbound-method': 'off',
      // node:test's describe() and it() (also in the testkit's conformance suite) return promises that the runner awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      // Config values and form fields are typed as unions that hold objects, but the ones printed are scalars the
      // schemas checked; String() and templates of them are meant (these two rules flag only the possibility).
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  {
    files: ['packages/server/src/db/**/*.ts'],
    rules: {
      // knex answers raw rows as any; the repositories are where rows get their types (their return types say them).
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['packages/*/test/**/*.ts', 'examples/*/test/**/*.ts'],
    rules: {
      // Tests read the API's answers untyped (ApiResponse's body is any) on purpose: their assertions are the type check.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: nodeGlobals },
    rules: { 'no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_' }] },
  },
);
