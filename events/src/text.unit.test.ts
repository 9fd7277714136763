import { describe, expect, it } from 'vitest';
import { createAgentInput, updateAgentInput } from './agent';
import { sendMessageInput } from './conversation';
import { clientMessage } from './socket';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from './text';

const issuesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('text PostgreSQL can store', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones (emoji) and other control characters', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('\uD800')).toBe(false);
    expect(isStorableText('x\uDC00y')).toBe(false);
    expect(isStorableText('\uDC00\uD800')).toBe(false);
    expect(isStorableText('Beatrice 😀 \u0001\t£')).toBe(true);
  });

  it('names the field in every command and socket message that carries text', () => {
    const bad = '\u0000';
    expect(issuesOf(createAgentInput.safeParse({ name: `a${bad}`, type: 'lender' }))).toEqual([`name: ${UNSTORABLE_TEXT_MESSAGE}`]);
    expect(issuesOf(createAgentInput.safeParse({ name: 'a', type: 'lender', description: '\uD83D' }))).toEqual([
      `description: ${UNSTORABLE_TEXT_MESSAGE}`,
    ]);
    expect(issuesOf(updateAgentInput.safeParse({ criteria: { loanTermMax: `25${bad}` } }))).toEqual([
      `criteria.loanTermMax: ${UNSTORABLE_TEXT_MESSAGE}`,
    ]);
    expect(issuesOf(sendMessageInput.safeParse({ conversationId: 1, content: `hi${bad}` }))).toEqual([
      `content: ${UNSTORABLE_TEXT_MESSAGE}`,
    ]);
    expect(issuesOf(clientMessage.safeParse({ type: 'send_message', conversationId: 1, content: 'hi', requestId: '\uDFFF' }))).toEqual([
      `requestId: ${UNSTORABLE_TEXT_MESSAGE}`,
    ]);
  });
});

describe('names and addresses a reader can trust', () => {
  it('refuses bidirectional overrides and other invisible control characters, naming the field, and keeps joiners and accents', async () => {
    const { profileInput } = await import('./user');
    const { changeDealInput } = await import('./deal');
    const { uploadDocumentFields } = await import('./document');
    const { invisibleControlMessage } = await import('./text');
    const spoof = 'Invoice\u202Efdp.exe';
    expect(issuesOf(createAgentInput.safeParse({ name: spoof, type: 'lender' }))).toEqual([
      `name: ${invisibleControlMessage('Agent name')}`,
    ]);
    expect(issuesOf(updateAgentInput.safeParse({ name: 'Amelia\u200BHart' }))).toEqual([`name: ${invisibleControlMessage('Agent name')}`]);
    for (const character of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
      '\uFEFF',
      '\u0007',
      '\n',
      '\u0085',
    ]) {
      expect(issuesOf(profileInput.safeParse({ firstName: 'Ada', lastName: `Love${character}lace` })), JSON.stringify(character)).toEqual([
        `lastName: ${invisibleControlMessage('Last name')}`,
      ]);
    }
    expect(issuesOf(profileInput.safeParse({ firstName: 'Ada', lastName: 'Lovelace', address: '12 St James\u2067 Square' }))).toEqual([
      `address: ${invisibleControlMessage('Address')}`,
    ]);
    expect(issuesOf(profileInput.safeParse({ firstName: 'Ada', lastName: 'Lovelace', company: 'Engines\u2066 Ltd' }))).toEqual([
      `company: ${invisibleControlMessage('Company')}`,
    ]);
    expect(
      issuesOf(uploadDocumentFields.safeParse({ dealId: '00000000-0000-4000-8000-000000000000', type: 'valuation', name: spoof })),
    ).toContain(`name: ${invisibleControlMessage('Document name')}`);
    const deal = changeDealInput.safeParse({ propertyAddress: '14 Harbour Row\u202E' });
    expect(issuesOf(deal)).toContain(`propertyAddress: ${invisibleControlMessage('Property address')}`);
    // Visible text stays: accents, emoji with the zero-width joiner, Persian with the zero-width non-joiner, Welsh.
    expect(createAgentInput.safeParse({ name: 'Zoë 👩‍💻 می‌خواهم Llanelli', type: 'lender' }).success).toBe(true);
  });
});
