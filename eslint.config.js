// ESLint over every TypeScript and JavaScript file we own, with typescript-eslint's type-checked rules.
// Formatting belongs to Prettier (`npm run lint` runs both): none of the sets below carries a layout rule, so
// the two never disagree and eslint-config-prettier is not needed.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The three plain-JavaScript entry points run on Node; tsconfig.json does not cover them, so they get the
// type service's default project and Node's globals by name.
const NODE_SCRIPTS = ['bin/*.mjs', 'scripts/*.mjs'];

export default defineConfig(
  globalIgnores(['node_modules/', 'dist/', 'packages/*/dist/', 'data/', 'coverage/', 'test/fixtures/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', ...NODE_SCRIPTS] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's test()/describe()/it() return promises the runner itself awaits; every other promise
      // still has to be awaited or handled.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      // `const { drop: _drop, ...rest } = x` is how we take a field out of an object; `_name` marks a
      // parameter an interface requires but this implementation does not read.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Stores, fakes and Fastify plugins implement Promise-returning interfaces; an `async` body with no
      // await is the honest way to do that synchronously (a throw still becomes a rejection).
      '@typescript-eslint/require-await': 'off',
      // Passing on a caught `unknown` is allowed, as only-throw-error allows rethrowing it.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // Only documented APIs of Node, Fastify and libraries: their `_`-prefixed fields are private and change
    // without notice. Our own classes keep private state in `#` fields, which this does not match; `__typename`
    // is a field of the X GraphQL API's data, not of an object of ours.
    files: ['src/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[computed=false][property.name=/^_(?!_typename$)/]',
          message: 'A `_`-prefixed field is private to its library or to Node: use a documented API.',
        },
        {
          selector: 'MemberExpression[computed=true][property.value=/^_(?!_typename$)/]',
          message: 'A `_`-prefixed field is private to its library or to Node: use a documented API.',
        },
      ],
    },
  },
  {
    files: NODE_SCRIPTS,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // Tests read JSON documents (response bodies, OpenAPI, upstream payloads) as `any` and let the assertions
    // check their shape; typing each one would restate the representations the tests exist to check.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
