import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/decisions/stream-cache.md, "What it costs": only the command side may read through the stream cache; the
// auditor's history and the tamper check read the store itself. Held by the imports: no module outside the
// command-service imports command-service/src/stream-cache.ts, by its path or through @pf/command-service.

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVICE = path.join(ROOT, 'command-service');
const CACHE = path.join(SERVICE, 'src/stream-cache');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', 'coverage', 'test-results', 'playwright-report']);
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** The repository's code files below a folder (dependencies and build output left out). */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : codeFiles(full);
    return CODE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const withoutExtension = (file: string) => file.replace(CODE, '');

/** The files @pf/command-service's package exports make importable, by the subpath after the package name. */
const packageExports = Object.entries(
  (JSON.parse(readFileSync(path.join(SERVICE, 'package.json'), 'utf8')) as { exports: Record<string, string> }).exports,
);

/** The module a specifier names, as a path without extension; null for another package's. */
function resolve(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return withoutExtension(path.resolve(path.dirname(from), specifier));
  if (specifier !== '@pf/command-service' && !specifier.startsWith('@pf/command-service/')) return null;
  const subpath = `.${specifier.slice('@pf/command-service'.length)}`;
  for (const [key, target] of packageExports) {
    const [prefix, suffix = ''] = key.split('*');
    if (key === subpath) return withoutExtension(path.join(SERVICE, target));
    if (key.includes('*') && subpath.startsWith(prefix!) && subpath.endsWith(suffix)) {
      const matched = subpath.slice(prefix!.length, subpath.length - suffix.length);
      return withoutExtension(path.join(SERVICE, target.replace('*', matched)));
    }
  }
  return null;
}

/** The modules a file imports or re-exports (dynamic imports too), resolved. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.flatMap(({ fileName }) => resolve(file, fileName) ?? []);
}

/** The modules a file re-exports values from (`export type … from` carries no cache out). */
function valueReExportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || statement.isTypeOnly) return [];
    const clause = statement.exportClause;
    if (clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly)) return [];
    return resolve(file, (statement.moduleSpecifier as ts.StringLiteral).text) ?? [];
  });
}

const fileOf = (module: string) => ['.ts', '.tsx'].map((extension) => module + extension).find((file) => existsSync(file));

/** Whether a module hands on the cache's values, itself or through the modules it re-exports. */
function handsOnTheCache(module: string, seen = new Set<string>()): boolean {
  if (module === CACHE) return true;
  const file = fileOf(module);
  if (!file || seen.has(module) || !module.startsWith(SERVICE)) return false;
  seen.add(module);
  return valueReExportsOf(file).some((target) => handsOnTheCache(target, seen));
}

describe('only the command side reads through the stream cache (docs/decisions/stream-cache.md)', () => {
  it('is imported by command-service modules only', () => {
    const outside = codeFiles(ROOT).filter((file) => !file.startsWith(SERVICE + path.sep));
    expect(outside.length).toBeGreaterThan(200);
    const importers = outside.filter((file) => importsOf(file).includes(CACHE)).map((file) => path.relative(ROOT, file));
    expect(importers).toEqual([]);
    // The check sees the imports it is looking for: the command side's own.
    const inside = codeFiles(SERVICE).filter((file) => importsOf(file).includes(CACHE));
    expect(inside.map((file) => path.relative(ROOT, file))).toContain('command-service/src/handle-command.ts');
  });

  it('is handed on by none of the modules @pf/command-service exports', () => {
    const exported = packageExports.flatMap(([, target]) => {
      if (!target.includes('*')) return [path.join(SERVICE, target)];
      const [prefix, suffix] = target.split('*') as [string, string];
      return codeFiles(path.join(SERVICE, prefix)).filter((file) => file.endsWith(suffix) && !/\.test\.tsx?$/.test(file));
    });
    expect(exported).toContain(path.join(SERVICE, 'src/index.ts'));
    const leaks = exported.filter((file) => handsOnTheCache(withoutExtension(file))).map((file) => path.relative(ROOT, file));
    expect(leaks).toEqual([]);
  });
});
