import { describe, expect, it } from 'vitest';
import { DocumentIndex } from './document-index';
import type { DocumentProjection } from './document-projection';

interface Doc {
  owners: string[];
  dealId: string | null;
  conversations: Record<string, string>;
  lastContact: string;
}

const projection: DocumentProjection<Doc> = {
  name: 'test',
  table: 'rm_test',
  lookupFields: ['dealId'],
  keyFields: ['conversations'],
  route: () => [],
  evolve: (doc) => doc,
  owners: (doc) => doc.owners,
};

describe('document index', () => {
  const docs = new Map<string, Doc | null>();
  const index = new DocumentIndex(projection, docs);
  /** As a fold changes a document: a new object each time (the evolve is pure). */
  const change = (id: string, doc: Doc | null) => {
    docs.set(id, doc);
    index.changed(id);
  };
  const dealOf = (value: string) => index.find({ where: { field: 'dealId', value } });
  const withConversation = (key: string) => index.find({ hasKey: { field: 'conversations', key } });
  const ownedBy = (owner: string) => index.find({ owner });

  it('finds documents by lookup value, key and owner as they stand after each change', () => {
    const first: Doc = { owners: ['firm-a'], dealId: null, conversations: { '7': 'open' }, lastContact: 'monday' };
    change('1', first);
    change('2', { owners: ['firm-b'], dealId: 'deal-9', conversations: {}, lastContact: 'monday' });
    expect(withConversation('7')).toEqual(['1']);
    expect(dealOf('deal-9')).toEqual(['2']);
    expect(ownedBy('firm-a')).toEqual(['1']);

    // A change that leaves the keys as they were (the same key object, the same owners): still found.
    change('1', { ...first, lastContact: 'tuesday' });
    expect(withConversation('7')).toEqual(['1']);
    expect(ownedBy('firm-a')).toEqual(['1']);

    // New owners alone, then a new key object and a new lookup value: found under the new ones only.
    change('1', { ...first, owners: ['firm-d'] });
    expect(ownedBy('firm-a')).toEqual([]);
    expect(ownedBy('firm-d')).toEqual(['1']);
    change('1', { ...first, owners: ['firm-c'], dealId: 'deal-3', conversations: { '8': 'open' } });
    expect(withConversation('7')).toEqual([]);
    expect(withConversation('8')).toEqual(['1']);
    expect(dealOf('deal-3')).toEqual(['1']);
    expect(ownedBy('firm-d')).toEqual([]);
    expect(ownedBy('firm-c')).toEqual(['1']);

    // Gone: found under nothing.
    change('2', null);
    expect(dealOf('deal-9')).toEqual([]);
    expect(ownedBy('firm-b')).toEqual([]);
  });
});
