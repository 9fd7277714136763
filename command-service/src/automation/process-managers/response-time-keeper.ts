import { streams, type EventMetadata } from '@pf/events';
import { AccountStore, type RecordedEvent, type ServiceContext } from '@pf/infra';
import { conversationDecider } from '../../conversation/conversation';
import { handleCommand } from '../../handle-command';
import { nextId } from '../../ids';
import { decidedIds } from './decisions';
import { deterministicId } from './deterministic-id';
import { startReactor, type Reactor } from './reactor';
import { evolveSideClock, overdueSides, type OverdueSide, type SideClock } from '../../conversation/response-time';

/**
 * The agents' response time (docs/behaviour/README.md) as a process manager of its own: it folds the agents' response times and
 * each open conversation's side clocks (response-time.ts) from the event stream, and, as leader, checks now and
 * then (and once caught up) for sides held by hand whose owner left the other side unanswered past the response
 * time; the agent takes such a side back, recorded as done by the system, and says why. The negotiator sees the
 * hand-back like any other and carries on. Its state is small, so it has no snapshot: each leader folds from the
 * start, and what is overdue follows from the events' times alone (a restart loses nothing).
 *
 * Given a clock of its own (`now`, a simulation's), it checks only when asked (`check`), never on its timer: whoever
 * moves that clock says when time has passed, and a hand-back written at a moment of the timer's choosing would land
 * after the simulation found the node idle and before it read the store (docs/simulation.md).
 */
export function startResponseTimeKeeper(
  context: ServiceContext,
  options: { now?: () => number } = {},
): Reactor & { check(): Promise<void> } {
  const { config, log, pool, store } = context;
  const now = options.now ?? Date.now;
  const onTimer = options.now === undefined;
  const hourMs = config.AGENT_RESPONSE_HOUR_MS;
  const accounts = new AccountStore(pool);
  // Every 30 s, or more often when the configured hour is short (tests), so an overdue side waits little longer.
  const everyMs = Math.max(50, Math.min(30_000, Math.floor(hourMs / 4)));
  let current: { check(): Promise<void> } | null = null;
  let checking = false;

  const reactor = startReactor({
    name: 'response-time',
    pool,
    store,
    supervisor: context.supervisor,
    log,
    handlers: () => {
      const responseTimes = new Map<number, number>();
      const clocks = new Map<number, SideClock>();
      const observe = (event: RecordedEvent) => {
        if (event.type === 'AgentCreated' && event.data.responseTime) responseTimes.set(event.data.agentId, event.data.responseTime);
        if (!('conversationId' in event.data)) return;
        const id = event.data.conversationId;
        const clock = evolveSideClock(clocks.get(id) ?? null, event, event.recordedAt.getTime());
        // A completed conversation leaves memory: nobody answers in it any more.
        if (!clock || clock.completed) clocks.delete(id);
        else clocks.set(id, clock);
      };
      const instance = {
        caughtUp: false,
        async check() {
          if (!instance.caughtUp) return;
          for (const side of overdueSides(clocks, (agentId) => responseTimes.get(agentId), now(), hourMs)) {
            if (clocks.has(side.conversationId)) await handBack(side);
          }
        },
      };
      current = instance;
      return {
        replay: observe,
        react: async (batch) => {
          for (const recorded of batch) observe(recorded);
        },
        caughtUp: () => {
          instance.caughtUp = true;
          if (onTimer) void tick();
        },
      };
    },
  });

  async function handBack(side: OverdueSide): Promise<void> {
    const { conversationId, ownerId, hours } = side;
    const key = `response-time:${conversationId}:${ownerId}:${side.key}`;
    const { messageId } = await decidedIds(pool, key, async () => ({ messageId: await nextId(pool, 'message_ids') }));
    const name = (await accounts.displayNames([ownerId])).get(ownerId) ?? 'its owner';
    const content = `No answer from ${name} within ${hours} ${hours === 1 ? 'hour' : 'hours'}: the agent carries on`;
    const metadata: EventMetadata = { actor: { kind: 'system', name: 'agent response time' }, correlationId: key, causationId: null };
    // Decided by the conversation's decider on the stream as it stands: only if the owner still holds the side
    // and the same speech is unanswered (a stale copy of the state, or a check run twice, then writes nothing).
    await handleCommand(
      store,
      streams.conversation(conversationId),
      conversationDecider,
      { type: 'ReturnSideToAgent', conversationId, ownerId, unansweredKey: side.key, message: { messageId, content } },
      metadata,
      (i) => deterministicId(`${key}:${i}`),
    );
    log.info(
      { conversationId, ownerId, hours },
      'an owner left the other side unanswered past the response time: the agent takes the side back',
    );
  }

  async function tick(): Promise<void> {
    if (checking || !current) return;
    checking = true;
    try {
      await current.check();
    } catch (error) {
      log.warn({ err: error }, 'the response-time check failed; it runs again shortly');
    } finally {
      checking = false;
    }
  }
  const timer = onTimer ? setInterval(() => void tick(), everyMs) : null;
  timer?.unref();

  return {
    check: tick,
    async close() {
      if (timer) clearInterval(timer);
      current = null;
      await reactor.close();
    },
  };
}
