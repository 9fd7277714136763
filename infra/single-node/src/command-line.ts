/** The command-line options of the single node's tools (npm run simulate, npm run transcripts). */

/** `--name N`: a whole number, else the fallback; anything else stops the tool with a line naming the option. */
export function wholeNumberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number (got ${process.argv[at + 1] ?? 'nothing'})`);
    process.exit(2);
  }
  return value;
}

/** `--name TEXT` (a file, say): its text, else null. */
export function textOption(name: string): string | null {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? null : (process.argv[at + 1] ?? null);
}
