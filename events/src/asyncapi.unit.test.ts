import { beforeAll, describe, expect, it } from 'vitest';
import { Parser, type ParseOutput } from '@asyncapi/parser';
import { asyncApiDocument } from './asyncapi';
import { domainEvent } from './domain-events';
import { clientMessage, serverMessage } from './socket';

const contractTypes = domainEvent.options.map((option) => option.shape.type.value);

describe('the AsyncAPI document of the event stream', () => {
  const document = asyncApiDocument({ topic: 'property-finance.events' });
  let output: ParseOutput;
  beforeAll(async () => {
    output = await new Parser().parse(JSON.stringify(document));
  });

  it('validates with the official AsyncAPI parser: no errors, no warnings', () => {
    const { document: parsed, diagnostics } = output;
    // Severity 0 is an error, 1 a warning; 2 and 3 are hints (such as "a newer AsyncAPI version exists").
    expect(diagnostics.filter((d) => Number(d.severity) < 2).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(parsed?.version()).toBe('3.0.0');
  });

  it('names every event type of the contract on the Kafka topic and on the feed, with its data schema', () => {
    const { document: parsed } = output;
    expect(contractTypes.length).toBeGreaterThan(30);
    for (const channel of ['eventTopic', 'eventFeed']) {
      const names = parsed!
        .channels()
        .get(channel)!
        .messages()
        .all()
        .map((message) => message.name());
      expect(names.sort()).toEqual([...contractTypes].sort());
    }
    const created = parsed!.components().messages().get('AgentCreated')!.payload()!.json<{
      properties: Record<string, { const?: string; properties?: Record<string, unknown> }>;
      required: string[];
    }>();
    expect(created.properties.type!.const).toBe('AgentCreated');
    expect(Object.keys(created.properties.data!.properties!)).toEqual(expect.arrayContaining(['agentId', 'ownerId', 'type', 'criteria']));
    expect(created.required).toEqual(expect.arrayContaining(['id', 'type', 'stream', 'streamVersion', 'position', 'recordedAt', 'data']));
  });

  it('names every /ws message each way', () => {
    const { document: parsed } = output;
    const names = parsed!
      .channels()
      .get('socket')!
      .messages()
      .all()
      .map((message) => message.name());
    const expected = [...clientMessage.options, ...serverMessage.options].map((option) => (option.shape.type as { value: string }).value);
    expect(new Set(names)).toEqual(new Set(expected));
  });
});
