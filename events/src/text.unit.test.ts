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
    expect(issuesOf(sendMessageInput.safeParse({ conversationId: 1, content: `hi${bad}` }))).toEqual([`content: ${UNSTORABLE_TEXT_MESSAGE}`]);
    expect(issuesOf(clientMessage.safeParse({ type: 'send_message', conversationId: 1, content: 'hi', requestId: '\uDFFF' }))).toEqual([
      `requestId: ${UNSTORABLE_TEXT_MESSAGE}`,
    ]);
  });
});
