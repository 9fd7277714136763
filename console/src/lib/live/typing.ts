/** Who is typing where: short-lived, so kept outside the query cache. */
type Listener = () => void;

const TYPING_SHOWN_MS = 4000;
const typing = new Map<number, { agentName: string; until: number }>();
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
}

export function noteTyping(conversationId: number, agentName: string): void {
  const until = Date.now() + TYPING_SHOWN_MS;
  typing.set(conversationId, { agentName, until });
  emit();
  setTimeout(() => {
    if (typing.get(conversationId)?.until === until) {
      typing.delete(conversationId);
      emit();
    }
  }, TYPING_SHOWN_MS);
}

/** A message from that conversation arrived: whoever was typing has finished. */
export function clearTyping(conversationId: number): void {
  if (typing.delete(conversationId)) emit();
}

export function typingIn(conversationId: number): string | null {
  return typing.get(conversationId)?.agentName ?? null;
}

export function subscribeTyping(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
