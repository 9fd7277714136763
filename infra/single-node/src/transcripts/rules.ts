import { turnsOf, type Entry, type Transcript } from './transcript';
import type { Finding, Rule } from './rule';
import { agreementsNamed, quotedFigures } from './figure-rules';
import { feeCap, loanAndTerm } from './terms-rules';
import { movesAsSaid, refusals, refusedNotAccepted, undocumentedClaims } from './word-rules';

type OfferEntry = Extract<Entry, { kind: 'offer' }>;

/** The rules of docs/behaviour/transcripts.md, in the order they are reported. */
const RULES: readonly Rule[] = [
  feeCap,
  loanAndTerm,
  movesAsSaid,
  refusals,
  refusedNotAccepted,
  quotedFigures,
  agreementsNamed,
  undocumentedClaims,
];

export interface Violation extends Finding {
  readonly rule: string;
  readonly source: string;
  readonly conversationId: number;
}

export interface CheckReport {
  readonly conversations: number;
  readonly withOffers: number;
  readonly rules: { name: string; unit: string; checked: number; setAside: number; violations: number }[];
  readonly violations: Violation[];
}

/** Every rule over every transcript. */
export function checkTranscripts(transcripts: readonly Transcript[], rules: readonly Rule[] = RULES): CheckReport {
  const tally = rules.map((rule) => ({ name: rule.name, unit: rule.unit, checked: 0, setAside: 0, violations: 0 }));
  const violations: Violation[] = [];
  for (const transcript of transcripts) {
    const turns = turnsOf(transcript);
    rules.forEach((rule, index) => {
      const result = rule.check(transcript, turns);
      tally[index]!.checked += result.checked;
      tally[index]!.setAside += result.setAside ?? 0;
      tally[index]!.violations += result.findings.length;
      for (const finding of result.findings)
        violations.push({ ...finding, rule: rule.name, source: transcript.source, conversationId: transcript.conversationId });
    });
  }
  return {
    conversations: transcripts.length,
    withOffers: transcripts.filter((t) => t.entries.some((entry: Entry): entry is OfferEntry => entry.kind === 'offer')).length,
    rules: tally,
    violations,
  };
}
