import type { DocumentProjection, LookupRoute } from './document-projection';

/**
 * The documents a batch has loaded, indexed by what lookup routes ask of them (a `where` field's value, a key of
 * a `hasKey` object, an owner), and kept current as the fold changes them: a route's rows are then found without
 * testing every loaded document against it, which made a batch's fold grow with its square.
 */
export class DocumentIndex<Doc> {
  private readonly ids = new Map<string, Set<string>>();
  private readonly keysOf = new Map<string, string[]>();
  /** Documents changed since the index last looked at them (all of them until the first lookup). */
  private stale: Set<string> | null = null;

  constructor(
    private readonly projection: DocumentProjection<Doc>,
    /** The batch's documents by id, as the fold leaves them (null: gone). */
    private readonly docs: ReadonlyMap<string, Doc | null>,
  ) {}

  /** Whether the index answers this route (its field is one the projection declares); others are scanned. */
  covers(route: LookupRoute): boolean {
    if ('owner' in route) return true;
    if ('where' in route) return this.projection.lookupFields.includes(route.where.field);
    return (this.projection.keyFields ?? []).includes(route.hasKey.field);
  }

  /** The ids of the documents the route matches now. */
  find(route: LookupRoute): string[] {
    for (const id of this.stale ?? this.docs.keys()) this.reindex(id);
    this.stale = new Set();
    return [...(this.ids.get(routeKey(route)) ?? [])];
  }

  /** The fold changed document `id` (most changes are never followed by a lookup, so indexing waits for one). */
  changed(id: string): void {
    this.stale?.add(id);
  }

  private reindex(id: string): void {
    for (const key of this.keysOf.get(id) ?? []) this.ids.get(key)?.delete(id);
    const doc = this.docs.get(id);
    const keys = doc ? this.keys(doc) : [];
    this.keysOf.set(id, keys);
    for (const key of keys) (this.ids.get(key) ?? this.ids.set(key, new Set()).get(key)!).add(id);
  }

  // The same tests as `matches` in json-rows-projection.ts, as keys.
  private keys(doc: Doc): string[] {
    const fields = doc as Record<string, unknown>;
    const keys = this.projection.owners(doc).map((owner) => routeKey({ owner }));
    for (const field of this.projection.lookupFields) keys.push(routeKey({ where: { field, value: String(fields[field]) } }));
    for (const field of this.projection.keyFields ?? []) {
      const object = fields[field];
      if (typeof object === 'object' && object !== null) for (const key in object) keys.push(routeKey({ hasKey: { field, key } }));
    }
    return keys;
  }
}

const routeKey = (route: LookupRoute) =>
  'owner' in route
    ? `owner\u0000${route.owner}`
    : 'where' in route
      ? `where\u0000${route.where.field}\u0000${route.where.value}`
      : `hasKey\u0000${route.hasKey.field}\u0000${route.hasKey.key}`;
