import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The query-service's folders import one way (docs/architecture.md, "A read"): the projector and the list of read
// models (read-models/index.ts) import the read models, a read model imports the projection kit, and the kit
// imports neither. The lint's cycle rule sees files; this sees the folders, where a cycle hides behind an index.

const SRC = path.resolve(import.meta.dirname, '../query-service/src');
const READ_MODELS = path.join(SRC, 'read-models');
const KIT = path.join(SRC, 'projection-kit');

/** The code files under a folder, tests left out (a test may fold every read model through the list). */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'testing.ts')
    .map((name) => path.join(dir, name));
}

/** Each relative import of a file, as the path it names (without an extension), from the source folder. */
function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.relative(SRC, path.resolve(path.dirname(file), name)));
}

describe("the query-service's folders", () => {
  it('a read model never imports the list of read models (read-models/index.ts)', () => {
    const modelFiles = codeFiles(READ_MODELS).filter((file) => path.dirname(file) !== READ_MODELS);
    expect(modelFiles.length).toBeGreaterThan(20);
    const throughTheList = modelFiles.flatMap((file) =>
      relativeImports(file)
        .filter((target) => target === 'read-models' || target === 'read-models/index')
        .map((target) => `${path.relative(SRC, file)} imports ${target}`),
    );
    expect(throughTheList).toEqual([]);
  });

  it('the projection kit imports no read model and not the projector', () => {
    const kitFiles = codeFiles(KIT);
    expect(kitFiles.length).toBeGreaterThan(10);
    const upward = kitFiles.flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith('read-models') || target.startsWith('projector'))
        .map((target) => `${path.relative(SRC, file)} imports ${target}`),
    );
    expect(upward).toEqual([]);
  });
});
