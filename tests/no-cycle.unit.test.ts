import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// The import-cycle check of `npm run lint` (docs/architecture.md, "Where code lives"), run as configured there on
// small modules written for each case: it must report two modules that import each other, or it checks nothing.

/** The cycle rule as the repository's config applies it to a service's module, with what it needs to run. */
let cycleRule: Linter.Config;
beforeAll(async () => {
  const repository = new ESLint({ cwd: path.resolve(import.meta.dirname, '..') });
  const config = (await repository.calculateConfigForFile('command-service/src/index.ts')) as Linter.Config;
  cycleRule = {
    plugins: { 'import-x': config.plugins!['import-x']! },
    settings: config.settings!,
    rules: { 'import-x/no-cycle': config.rules!['import-x/no-cycle']! },
  };
});

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Lints the given TypeScript modules with the repository's cycle rule; the messages by file name. */
async function lint(files: Record<string, string>): Promise<Record<string, string[]>> {
  dir = await mkdtemp(path.join(tmpdir(), 'no-cycle-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [{ ...cycleRule, files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }],
  });
  const results = await eslint.lintFiles(Object.keys(files));
  return Object.fromEntries(
    results.map((result) => [path.basename(result.filePath), result.messages.map((m) => `${m.ruleId}: ${m.message}`)]),
  );
}

describe('the import-cycle rule of npm run lint', () => {
  it("is an error for the services' modules", () => {
    expect(cycleRule.rules).toEqual({ 'import-x/no-cycle': [2] });
  });

  it('reports two modules that import each other, at the import in each', async () => {
    const messages = await lint({
      'a.ts': "import { b } from './b';\nexport const a = () => b() + 1;\n",
      'b.ts': "import { a } from './a';\nexport const b = () => 2;\nexport const c = () => a();\n",
    });
    expect(messages).toEqual({
      'a.ts': ['import-x/no-cycle: Dependency cycle detected'],
      'b.ts': ['import-x/no-cycle: Dependency cycle detected'],
    });
  });

  it('reports a longer cycle, through a module in between', async () => {
    const messages = await lint({
      'a.ts': "import { b } from './b';\nexport const a = () => b();\n",
      'b.ts': "import { c } from './c';\nexport const b = () => c();\n",
      'c.ts': "import { a } from './a';\nexport const c = () => 3;\nexport const d = () => a();\n",
    });
    expect(messages['a.ts']).toEqual(['import-x/no-cycle: Dependency cycle via "./c:1"']);
  });

  it('passes modules whose imports go one way, and an import of types alone (gone at run time)', async () => {
    const messages = await lint({
      'a.ts': "import { b } from './b';\nexport interface A { n: number }\nexport const a = (): A => ({ n: b() });\n",
      'b.ts': "import type { A } from './a';\nexport const b = () => 2;\nexport const isA = (x: A) => x.n > 0;\n",
    });
    expect(messages).toEqual({ 'a.ts': [], 'b.ts': [] });
  });
});
