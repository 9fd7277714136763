/** What a board's document is scrubbed of: the deleted people's agents, and the words already known to name them. */
export interface Scrub {
  readonly agents: ReadonlySet<number>;
  /** Names and words collected so far, with what replaces each; what this document yields is added, for the notifications. */
  readonly quoted: Map<string, string>;
  readonly deletedAgent: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
const ADDRESS_KEYS = new Set(['propertyAddress', 'address']);
const REMOVED_ADDRESS = '(removed)';

/**
 * A board's JSON document without a deleted person's agents in it (pure; the same document back when nothing
 * changes). Three shapes name an agent: an object with `agentId` and `name`, a pair of fields `{role}AgentId` and
 * `{role}Name` (a deal), and a `names` map keyed by agent id (a match). A document about such an agent also loses
 * its property address; then every text in it that quotes a name or an address found is rewritten.
 */
export function scrubDoc(doc: unknown, scrub: Scrub): unknown {
  const found = new Map<string, string>();
  const gone = (value: unknown) => typeof value === 'number' && scrub.agents.has(value);
  let concerns = false;
  const hide = (text: Json | undefined, replacement: string) => {
    if (typeof text === 'string' && text !== '' && text !== replacement && text !== REMOVED_ADDRESS) found.set(text, replacement);
  };

  const collect = (value: Json): void => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (!isObject(value)) return;
    if (gone(value.agentId)) {
      concerns = true;
      hide(value.name, scrub.deletedAgent);
    }
    for (const [key, field] of Object.entries(value)) {
      const role = /^(\w+)AgentId$/.exec(key);
      if (role && gone(field)) {
        concerns = true;
        hide(value[`${role[1]}Name`], scrub.deletedAgent);
      }
      if (key === 'names' && isObject(field)) {
        for (const [agentId, name] of Object.entries(field)) {
          if (gone(Number(agentId))) {
            concerns = true;
            hide(name, scrub.deletedAgent);
          }
        }
      }
      collect(field);
    }
  };
  collect(doc as Json);
  if (!concerns) return doc;
  const addresses = (value: Json): void => {
    if (Array.isArray(value)) return value.forEach(addresses);
    if (!isObject(value)) return;
    for (const [key, field] of Object.entries(value)) {
      if (ADDRESS_KEYS.has(key)) hide(field, REMOVED_ADDRESS);
      addresses(field);
    }
  };
  addresses(doc as Json);
  for (const [text, replacement] of found) scrub.quoted.set(text, replacement);
  if (found.size === 0) return doc;

  // Longest first, so a name inside a longer text (an address holding a name) is replaced whole.
  const texts = [...found.keys()].sort((a, b) => b.length - a.length);
  const rewrite = (value: Json): Json => {
    if (typeof value === 'string') {
      const exact = found.get(value);
      if (exact !== undefined) return exact;
      return texts.reduce((text, from) => text.split(from).join(found.get(from)), value);
    }
    if (Array.isArray(value)) return value.map(rewrite);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, rewrite(field)]));
    return value;
  };
  return rewrite(doc as Json);
}
