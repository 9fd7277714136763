import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('quotes fields with commas, quotes and line breaks, and ends every row with CRLF', () => {
    expect(
      toCsv([
        ['a,b', 'say "hi"', 'two\nlines'],
        [1, null, undefined],
      ]),
    ).toBe('"a,b","say ""hi""","two\nlines"\r\n1,,\r\n');
  });

  it('defuses text a spreadsheet would run as a formula, but leaves numbers as numbers', () => {
    expect(
      toCsv([
        ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tx', 'plain'],
        [-2, 3.5],
      ]),
    ).toBe(`"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),'\tx,plain\r\n-2,3.5\r\n`);
  });
});
