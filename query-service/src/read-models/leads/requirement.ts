import type { AgentType, Criteria } from '@pf/events';

const PARTS = [
  ['Property', 'propertyValueMin', 'propertyValueMax'],
  ['Rate', 'interestRateMin', 'interestRateMax'],
  ['Term', 'loanTermMin', 'loanTermMax'],
] as const;

const LEAD = { borrower: 'Needs', lender: 'Lends on', broker: 'Introduces' } as const;

/**
 * A lead's need or appetite in words, from its criteria as they were written ("£250k", "4.5%"): a borrower's
 * need, a lender's appetite, a broker's market. Searchable "by name or requirements" (docs/behaviour/matching.md).
 */
export function describeRequirement(type: AgentType, criteria: Criteria | null): string {
  const parts = PARTS.flatMap(([label, minKey, maxKey]) => {
    const min = criteria?.[minKey];
    const max = criteria?.[maxKey];
    if (min && max) return [`${label} ${min} to ${max}`];
    if (min) return [`${label} from ${min}`];
    if (max) return [`${label} up to ${max}`];
    return [];
  });
  return parts.length === 0 ? `${LEAD[type]}: no criteria given yet` : `${LEAD[type]}: ${parts.join(' · ')}`;
}

/**
 * describeRequirement as SQL over a lead row's `doc` (`b.doc`), so the board is searched by requirements on
 * the server; leads/paging.int.test.ts checks the two agree. An empty criterion counts as none, as above.
 */
export const REQUIREMENT_SQL = (() => {
  const value = (key: string) => `nullif(b.doc->'criteria'->>'${key}', '')`;
  const part = ([label, minKey, maxKey]: (typeof PARTS)[number]) => {
    const [min, max] = [value(minKey), value(maxKey)];
    return `case when ${min} is not null and ${max} is not null then '${label} ' || ${min} || ' to ' || ${max}
      when ${min} is not null then '${label} from ' || ${min} when ${max} is not null then '${label} up to ' || ${max} end`;
  };
  const lead = Object.entries(LEAD)
    .map(([type, words]) => `when '${type}' then '${words}'`)
    .join(' ');
  return `(case b.doc->>'type' ${lead} end || ': ' ||
    coalesce(nullif(concat_ws(' · ', ${PARTS.map(part).join(', ')}), ''), 'no criteria given yet'))`;
})();
