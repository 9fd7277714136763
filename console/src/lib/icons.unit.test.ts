import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IconNames } from '@blueprintjs/icons';
import { describe, expect, it } from 'vitest';
import { hasOwnChunk } from './icons';

const source = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Strings in the console that happen to name a Blueprint icon but are never drawn as one. */
const NOT_ICONS = new Set(['at', 'code', 'confirm', 'control', 'form', 'list', 'manual', 'phone', 'settings', 'user']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('icons loaded on demand', () => {
  it('gives every icon the console names a chunk of its own, so no screen loads all of them', () => {
    const icons = new Set<string>(Object.values(IconNames));
    const named = new Set<string>();
    for (const file of sourceFiles(source)) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/['"]([a-z0-9-]+)['"]/g)) {
        if (icons.has(name!) && !NOT_ICONS.has(name!)) named.add(name!);
      }
    }
    // The scan finds the icons of the navigation, the buttons and the figure cards, wherever they are written.
    expect([...named]).toEqual(expect.arrayContaining(['dashboard', 'floppy-disk', 'eye-open', 'tick-circle']));
    expect([...named].filter((name) => !hasOwnChunk(name)).sort()).toEqual([]);
  });
});
