// ESLint for the whole repository: typescript-eslint's recommended type-checked rules, React's hooks rules, and the
// import boundaries that keep the code readable by folder (see docs/architecture.md, "Where code lives").
// Not the strict set: switched on, it finds about 3,200 problems in 550 files, most of them template literals with
// numbers and non-null assertions after a lookup the code has checked; taking it on is a change of its own.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const features = [
  'agents',
  'analytics',
  'auth',
  'conversations',
  'dashboard',
  'deals',
  'documents',
  'history',
  'landing',
  'market',
  'matching',
  'notifications',
  'settings',
];
const services = ['command-service', 'query-service', 'realtime-gateway'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', '**/playwright-report/**', 'console/public/**'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a name that must stand where it stands (a positional parameter an interface
      // passes, a field left out of a rest copy) but is not read: the usual convention, said once here.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Off: Fastify's plugin and hook contract is an async function (FastifyPluginAsync, onRequest hooks), and a
      // method that implements an async interface (a reactor's react) is async by contract even where this
      // implementation awaits nothing. The rules that catch a promise misused (no-floating-promises,
      // no-misused-promises) stay on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // No import cycles (docs/architecture.md, "Where code lives"): a slice's modules form a tree, and what two modules
  // both need lives in the module that owns it. Type-only imports are not followed (they vanish at run time).
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The rule follows only the modules it can parse, with the parser named here for their extension: without
      // these it reads no TypeScript module and finds no cycle at all (tests/no-cycle.unit.test.ts).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['console/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Source and tests alike read a row through its declared type (pool.query<Row>(...)), an HTTP answer through the
  // contract's types (ApiClient's get<AgentView>(...), `as ApiError` on a parsed body) and a socket message as the
  // contract's ServerMessage, so the no-unsafe-* rules stand everywhere, with no exemption.

  // Plain JavaScript (this file, scripts/*.mjs) is not in the TypeScript project: no type-aware rules there.
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
  // A console feature is a vertical slice: it imports shared code (components/, lib/, app-level hooks), never
  // another feature. What two features share moves to components/ or lib/.
  ...features.map((feature) => ({
    files: [`console/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${features.filter((f) => f !== feature).join('|')})(/|$)`,
              message:
                'A console feature does not import another feature: move what both need to console/src/components or console/src/lib.',
            },
          ],
        },
      ],
    },
  })),
  // A service reaches the others only through events and HTTP, never through their code.
  ...services.map((service) => ({
    files: [`${service}/src/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(@pf/(${services
                .filter((s) => s !== service)
                .map((s) => s.replace('realtime-', ''))
                .join('|')})|(\\.\\./)+(${services.filter((s) => s !== service).join('|')}))(/|$)`,
              message: 'A service imports no other service: share through @pf/events (the contract) or @pf/infra.',
            },
          ],
        },
      ],
    },
  })),
);
