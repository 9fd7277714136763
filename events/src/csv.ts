/** One CSV cell's value: text, a number, or nothing. */
export type CsvValue = string | number | null | undefined;

/**
 * RFC 4180 CSV, safe to open in a spreadsheet: fields with commas, quotes or line breaks are quoted (quotes
 * doubled), and text that starts with = + - @ or a tab or carriage return is prefixed with ' so that a
 * spreadsheet shows it rather than runs it as a formula (CSV injection). Numbers are written as they are.
 * Both exports use it: the console's Market and Analytics downloads and the server's conversation history.
 */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
