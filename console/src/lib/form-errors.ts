import type { z } from 'zod';

/** A form's errors by field: the first message the contract's schema gives for each (shown under that field). */
export type FieldErrors = Partial<Record<string, string>>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const found: FieldErrors = {};
  for (const issue of error.issues) found[String(issue.path[0])] ??= issue.message;
  return found;
}
