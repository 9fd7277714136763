import { USER_MESSAGES, type ServerMessage } from '@pf/events';
import type { CommandResponse } from '@pf/infra';

/**
 * Maps the command-service's answer to the socket's reply. A 4xx message is the server's own words
 * for the person (it names the rule), and so is a 503 (the database is down: try again shortly); any other
 * 5xx or a failure to reach it gives only the user's wording (docs/behaviour/README.md, "Errors").
 * Without a requestId a success needs no reply.
 */
export function commandAnswer(requestId: string | undefined, response: CommandResponse | null, fallback: string): ServerMessage | null {
  if (response && response.statusCode >= 200 && response.statusCode < 300) {
    return requestId === undefined ? null : { type: 'ack', requestId, position: response.position };
  }
  const given = (response?.body as { message?: unknown } | null)?.message;
  const useGiven =
    response !== null &&
    ((response.statusCode >= 400 && response.statusCode < 500) || response.statusCode === 503) &&
    typeof given === 'string' &&
    given;
  const status = response !== null && response.statusCode >= 400 && response.statusCode < 500 ? { status: response.statusCode } : {};
  return { type: 'error', requestId: requestId ?? null, message: useGiven ? given : fallback, ...status };
}

export const FALLBACKS = {
  send_message: USER_MESSAGES.messageSendFailed,
  manual_override: USER_MESSAGES.manualToggleFailed,
  hand_over: USER_MESSAGES.handOverFailed,
} as const;
