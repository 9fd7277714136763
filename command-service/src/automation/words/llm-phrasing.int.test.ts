/**
 * The external model API is stood in for by a tiny local HTTP server speaking the OpenAI chat-completions
 * shape, so these tests exercise the real `openai` client without reaching any outside service.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmPhraser, statesSameNumbers } from './llm-phrasing';

const draft = 'Our best at this stage is £187,000 at 4.10% over 25 years with a £1,250 arrangement fee.';
let reply: { status: number; content: string; delayMs: number } = { status: 200, content: '', delayMs: 0 };
type ChatRequest = { model: string; messages: Array<{ content: string }> };
const received: ChatRequest[] = [];
let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body) as ChatRequest);
      setTimeout(() => {
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: 0,
            model: 'stand-in',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply.content } }],
          }),
        );
      }, reply.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function phraserWithLog(timeoutMs = 2000) {
  const warnings: string[] = [];
  const phrase = createLlmPhraser(
    { LLM_BASE_URL: baseURL, LLM_API_KEY: 'test-key', LLM_MODEL: 'stand-in-model' },
    { warn: (_details, message) => warnings.push(message) },
    { timeoutMs },
  );
  return { phrase, warnings };
}

const context = { speaker: 'Northern Bank', role: 'lender' as const };

describe('LLM phrasing against a local stand-in for the model API', () => {
  it('uses the model’s text when it states exactly the engine’s numbers', async () => {
    reply = { status: 200, content: 'The most we can do right now: £187,000 at 4.1% for 25 years, fee £1,250.', delayMs: 0 };
    const { phrase, warnings } = phraserWithLog();
    expect(await phrase(draft, context)).toBe(reply.content);
    expect(warnings).toEqual([]);
    expect(received.at(-1)?.model).toBe('stand-in-model');
    expect(received.at(-1)?.messages.at(-1)?.content).toContain(draft);
  });

  it('falls back, and logs, when the model changes or adds a number', async () => {
    reply = { status: 200, content: 'We can do £187,000 at 3.9% over 25 years with a £1,250 fee.', delayMs: 0 };
    const { phrase, warnings } = phraserWithLog();
    expect(await phrase(draft, context)).toBe(draft);
    expect(warnings).toHaveLength(1);
  });

  it('falls back, and logs, on an error answer or a timeout', async () => {
    reply = { status: 500, content: 'boom', delayMs: 0 };
    const failing = phraserWithLog();
    expect(await failing.phrase(draft, context)).toBe(draft);
    expect(failing.warnings[0]).toMatch(/failed/);
    reply = { status: 200, content: draft, delayMs: 500 };
    const slow = phraserWithLog(100);
    expect(await slow.phrase(draft, context)).toBe(draft);
    expect(slow.warnings[0]).toMatch(/failed/);
  });

  it('returns the built-in wording untouched when no model is configured', async () => {
    const phrase = createLlmPhraser({}, { warn: () => expect.fail('no warning expected') });
    expect(await phrase(draft, context)).toBe(draft);
  });

  it('compares numbers, not their formatting', () => {
    expect(statesSameNumbers('4.10% and £1,250', '£1250 with 4.1%')).toBe(true);
    expect(statesSameNumbers('£250,000', '£250k')).toBe(false);
    expect(statesSameNumbers('25 years', '25 years and 2 months')).toBe(false);
  });
});
