import { describe, expect, it } from 'vitest';
import { arrayLiteral } from './fold-batch';
import { readModelDatabase } from '../read-models/testing';

/** The array literals that writeRows sends: PostgreSQL reads back exactly the values they were made from. */
describe('array literals', () => {
  const database = readModelDatabase();
  const literal = (values: readonly unknown[]) => arrayLiteral(values.length, (index) => values[index]);

  it('keeps text with quotes, backslashes, control characters, surrogates, braces, commas and NULL-looking words', async () => {
    const texts = [
      '',
      'plain',
      'NULL',
      ' spaced ',
      '{braces}, commas',
      'say "hello"',
      'back\\slash \\" both',
      'line\nbreak\ttab "quoted"',
      'emoji 🏠 "quoted"',
      'lone \ud800 surrogate "quoted"',
      JSON.stringify({ note: 'a "quoted" word\n and a \\ backslash', nested: { list: [1, 'two'] } }),
    ];
    const { rows } = await database.pool.query<{ texts: string[] }>('select $1::text[] as texts', [literal(texts)]);
    expect(rows[0]!.texts).toEqual(texts.map((text) => text.replace('\ud800', '\ufffd')));
  });

  it('keeps numbers, booleans, nulls, times and JSON documents', async () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    const document = { name: 'Harbour "Bank"', owners: ['a\\b'], fee: 999 };
    const { rows } = await database.pool.query<{ ids: string[]; flags: boolean[]; ats: Date[]; docs: unknown[]; scores: number[] }>(
      'select $1::bigint[] as ids, $2::boolean[] as flags, $3::timestamptz[] as ats, $4::jsonb[] as docs, $5::numeric[] as scores',
      [
        literal([1, null, 9007199254740991n]),
        literal([true, false, null]),
        literal([at, at.toISOString(), null]),
        literal([JSON.stringify(document), null]),
        literal([82.5, 0.1]),
      ],
    );
    expect(rows[0]).toEqual({
      ids: ['1', null, '9007199254740991'],
      flags: [true, false, null],
      ats: [at, at, null],
      docs: [document, null],
      scores: [82.5, 0.1],
    });
  });
});
