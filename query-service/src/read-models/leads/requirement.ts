import { REQUIREMENT_LEAD, REQUIREMENT_PARTS, requirementIn, type AgentType, type Criteria } from '@pf/events';

/**
 * A lead's need or appetite in words, from its criteria as they were written ("£250k", "4.5%"): a borrower's
 * need, a lender's appetite, a broker's market. Searchable "by name or requirements" (docs/behaviour/matching.md).
 */
export function describeRequirement(type: AgentType, criteria: Criteria | null): string {
  return requirementIn(type, criteria, (_key, written) => written || null);
}

/**
 * describeRequirement as SQL over a lead row's `doc` (`b.doc`), so the board is searched by requirements on
 * the server; leads/paging.int.test.ts checks the two agree. An empty criterion counts as none, as above.
 */
export const REQUIREMENT_SQL = (() => {
  const value = (key: string) => `nullif(b.doc->'criteria'->>'${key}', '')`;
  const part = ([label, minKey, maxKey]: (typeof REQUIREMENT_PARTS)[number]) => {
    const [min, max] = [value(minKey), value(maxKey)];
    return `case when ${min} is not null and ${max} is not null then '${label} ' || ${min} || ' to ' || ${max}
      when ${min} is not null then '${label} from ' || ${min} when ${max} is not null then '${label} up to ' || ${max} end`;
  };
  const lead = Object.entries(REQUIREMENT_LEAD)
    .map(([type, words]) => `when '${type}' then '${words}'`)
    .join(' ');
  return `(case b.doc->>'type' ${lead} end || ': ' ||
    coalesce(nullif(concat_ws(' · ', ${REQUIREMENT_PARTS.map(part).join(', ')}), ''), 'no criteria given yet'))`;
})();
