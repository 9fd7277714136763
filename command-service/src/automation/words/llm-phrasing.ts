/**
 * Optional phrasing by an OpenAI-compatible model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). Its text is used
 * only when it states exactly the engine's numbers (all of them, and no others); otherwise, or on any error or
 * after the timeout (10 s), the built-in wording is used and the fallback is logged.
 */
import OpenAI from 'openai';

export interface LlmSettings {
  LLM_BASE_URL?: string | undefined;
  LLM_API_KEY?: string | undefined;
  LLM_MODEL?: string | undefined;
}

/** The slice of a pino logger this needs. */
export interface PhrasingLogger {
  warn(details: object, message: string): void;
}

interface PhrasingContext {
  speaker: string;
  role: 'borrower' | 'broker' | 'lender';
}

/** Returns the text to send: the model's rewording of `draft`, or `draft` itself. */
export type Phraser = (draft: string, context: PhrasingContext) => Promise<string>;

const INSTRUCTIONS =
  'You rewrite one chat message from an automated negotiator on a UK property-finance platform. Write plain ' +
  'British English, one or two sentences, in the first person of the speaker. Keep every number and £ or % ' +
  'figure exactly as given and add no other numbers. Reply with the message only.';

export function createLlmPhraser(settings: LlmSettings, logger: PhrasingLogger, options: { timeoutMs?: number } = {}): Phraser {
  const { LLM_BASE_URL: baseURL, LLM_API_KEY: apiKey, LLM_MODEL: model } = settings;
  if (!baseURL || !model) return async (draft) => draft;
  const client = new OpenAI({ baseURL, apiKey: apiKey ?? 'none', timeout: options.timeoutMs ?? 10_000, maxRetries: 0 });
  return async (draft, context) => {
    try {
      const completion = await client.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: `Speaker: ${context.speaker} (${context.role}).\nMessage: ${draft}` },
        ],
      });
      const text = completion.choices[0]?.message?.content?.trim() ?? '';
      if (text && statesSameNumbers(draft, text)) return text;
      logger.warn({ draft, text }, 'LLM phrasing did not state the engine’s numbers; using the built-in wording');
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'LLM phrasing failed; using the built-in wording');
    }
    return draft;
  };
}

/** Both texts state the same set of numbers ("4.10%" and "4.1%" count as the same; "£250k" does not). */
export function statesSameNumbers(expected: string, actual: string): boolean {
  const want = numbersIn(expected);
  const got = numbersIn(actual);
  return want.size === got.size && [...want].every((value) => got.has(value));
}

function numbersIn(text: string): Set<string> {
  const found = text.match(/\d[\d,]*(?:\.\d+)?/g) ?? [];
  return new Set(found.map((token) => String(Number(token.replace(/,/g, '')))));
}
