import { describe, expect, it } from 'vitest';
import { USER_MESSAGES } from '@pf/events';
import { commandAnswer } from './command-answer';
import { parseIncoming } from './incoming';
import { TokenBucket } from './rate-limit';

describe('incoming messages', () => {
  const text = (value: unknown) => parseIncoming(JSON.stringify(value), false);

  it('accepts a valid message and trims the content', () => {
    expect(text({ type: 'send_message', conversationId: 3, content: '  hi  ', requestId: 'r1' })).toEqual({
      ok: true,
      message: { type: 'send_message', conversationId: 3, content: 'hi', requestId: 'r1' },
    });
  });

  it.each([
    ['not JSON', '{nope', 'Messages must be valid JSON'],
    ['an array', '[1]', 'A message must be a JSON object with a type'],
  ])('refuses %s', (_name, raw, problem) => {
    expect(parseIncoming(raw, false)).toEqual({ ok: false, requestId: null, problem });
  });

  it('refuses binary frames', () => {
    expect(parseIncoming(Buffer.from('{}'), true)).toMatchObject({ ok: false });
  });

  it('names the field and the rule, and echoes the requestId', () => {
    expect(text({ type: 'send_message', conversationId: 3, content: '   ', requestId: 'r2' })).toEqual({
      ok: false,
      requestId: 'r2',
      problem: `content: ${USER_MESSAGES.messageEmpty}`,
    });
    expect(text({ type: 'send_message', conversationId: 3, content: 'x'.repeat(4001) })).toMatchObject({
      problem: `content: ${USER_MESSAGES.messageTooLong}`,
    });
    expect(text({ type: 'dance', requestId: 'r3' })).toMatchObject({
      requestId: 'r3',
      problem: expect.stringMatching(/^type: Unknown message type/) as unknown,
    });
    expect(text({ type: 'resume', afterPosition: 'yesterday' })).toMatchObject({
      problem: expect.stringMatching(/^afterPosition: A position/) as unknown,
    });
  });

  it('accepts exactly 4,000 characters', () => {
    expect(text({ type: 'send_message', conversationId: 3, content: 'x'.repeat(4000) })).toMatchObject({ ok: true });
  });
});

describe('command answers', () => {
  const answer = (statusCode: number, body: unknown, position: string | null = null) =>
    commandAnswer('r1', { statusCode, body, position }, USER_MESSAGES.messageSendFailed);

  it('acknowledges with the position of the command’s event', () => {
    expect(answer(201, {}, '5:9')).toEqual({ type: 'ack', requestId: 'r1', position: '5:9' });
  });

  it('passes a 4xx message through and hides a 5xx one', () => {
    expect(answer(404, { message: 'Conversation not found' })).toMatchObject({ message: 'Conversation not found' });
    expect(answer(500, { message: 'relation "x" does not exist' })).toMatchObject({ message: 'Failed to send message' });
    expect(answer(400, null)).toMatchObject({ message: 'Failed to send message' });
  });

  it('answers an unreachable command-service with the spec wording', () => {
    expect(commandAnswer(undefined, null, USER_MESSAGES.manualToggleFailed)).toEqual({
      type: 'error',
      requestId: null,
      message: 'Failed to toggle manual mode',
    });
  });

  it('stays silent on a success nobody asked to hear about', () => {
    expect(commandAnswer(undefined, { statusCode: 200, body: {}, position: '1:1' }, 'x')).toBeNull();
  });
});

describe('rate limit', () => {
  it('allows a burst, then refills over time', () => {
    const bucket = new TokenBucket(3, 2, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    expect(bucket.take(400)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(10_000)).toBe(true);
  });
});
