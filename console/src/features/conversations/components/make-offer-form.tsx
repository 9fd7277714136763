import { Button, Callout, Card, FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { makeOfferInput, plural, pounds, ratePercent, readMoney, type ConversationView, type Criteria, type LoanTerms } from '@pf/events';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { failureReason } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { makeOffer, useLastOffer, useOfferingAgent } from '../api/make-offer';

/** What the side's own criteria allow, in the operator's own words: the limits the offer should respect. */
function limitsOf(criteria: Criteria | null): string {
  if (!criteria) return 'No limits stated';
  const range = (lo?: string, hi?: string) => (lo && hi ? `${lo} to ${hi}` : (lo ?? hi ?? null));
  const parts = [
    criteria.loanAmount ? `loan ${criteria.loanAmount}` : null,
    range(criteria.interestRateMin, criteria.interestRateMax) ? `rate ${range(criteria.interestRateMin, criteria.interestRateMax)}` : null,
    range(criteria.loanTermMin, criteria.loanTermMax) ? `term ${range(criteria.loanTermMin, criteria.loanTermMax)}` : null,
    criteria.maxLtv ? `LTV up to ${criteria.maxLtv}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'No limits stated';
}

/**
 * Make offer (docs/decisions/one-commitment-per-need.md): the side the person holds offers exact figures (loan,
 * rate, term, fee), pre-filled with the last offer, beside the side's own limits; the thread then says what was
 * recorded, and the other side answers it like any offer. A refusal (the need committed elsewhere) is shown here.
 */
export function MakeOfferForm({ conversation }: { conversation: ConversationView }) {
  const queryClient = useQueryClient();
  const principals = conversation.participants.filter((p) => p.isMine && p.type !== 'broker');
  const [open, setOpen] = useState(false);
  const [agentId, setAgentId] = useState(principals[0]?.agentId);
  const [fields, setFields] = useState({ loan: '', rate: '', term: '', fee: '' });
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // What the last offer sent here was, said where the form was and given the focus (the form it came from is gone).
  const [sent, setSent] = useState<string | null>(null);
  const sentRef = useRef<HTMLParagraphElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (sent) sentRef.current?.focus();
  }, [sent]);
  useEffect(() => {
    if (open) firstField.current?.focus();
  }, [open]);
  const last = useLastOffer(conversation.id);
  const agent = useOfferingAgent(agentId).data;

  useEffect(() => {
    const terms: LoanTerms | null | undefined = last.data;
    if (!open || !terms) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the form opens pre-filled with the last offer, which may arrive after it opened
    setFields({
      loan: pounds(terms.loanAmount),
      rate: terms.interestRate.toFixed(2),
      term: String(terms.termYears),
      fee: pounds(terms.arrangementFee),
    });
  }, [open, last.data]);

  if (principals.length === 0 || conversation.status !== 'active') return null;
  if (!open) {
    return (
      <div className="pf-make-offer">
        {sent ? (
          <p className="pf-offer-sent" role="status" tabIndex={-1} ref={sentRef} data-testid="offer-sent">
            {sent}
          </p>
        ) : null}
        <Button
          icon="bank-account"
          text="Make offer"
          ref={openButton}
          onClick={() => {
            setSent(null);
            setOpen(true);
          }}
        />
      </div>
    );
  }

  // The one schema of an offer (events/src/conversation.ts) checks the figures here as the server will.
  const candidate = makeOfferInput.safeParse({
    ...(agentId ? { fromAgentId: agentId } : {}),
    loanAmount: readMoney(fields.loan) ?? undefined,
    interestRate: fields.rate.trim() === '' ? undefined : Number(fields.rate),
    termYears: fields.term.trim() === '' ? undefined : Number(fields.term),
    arrangementFee: readMoney(fields.fee) ?? undefined,
  });
  const problem = candidate.success ? null : (candidate.error.issues[0]?.message ?? 'Check the figures');

  const submit = async () => {
    if (!candidate.success) return;
    setSending(true);
    setRefusal(null);
    try {
      await makeOffer(conversation.id, candidate.data);
      const t = candidate.data;
      setSent(
        `Offer sent: ${pounds(t.loanAmount)} at ${ratePercent(t.interestRate)} over ${plural(t.termYears, 'year')}, ${pounds(t.arrangementFee)} fee`,
      );
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(conversation.id), exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.history(conversation.id) });
    } catch (error) {
      setRefusal(failureReason(error));
    } finally {
      setSending(false);
    }
  };

  const field = (key: keyof typeof fields, label: string, placeholder: string) => (
    <FormGroup label={label} labelFor={`offer-${key}`} inline>
      <InputGroup
        id={`offer-${key}`}
        inputRef={key === 'loan' ? firstField : undefined}
        value={fields[key]}
        placeholder={placeholder}
        onValueChange={(value) => setFields((f) => ({ ...f, [key]: value }))}
      />
    </FormGroup>
  );

  return (
    <Card className="pf-make-offer" data-testid="make-offer">
      {principals.length > 1 ? (
        <FormGroup label="Offer as" labelFor="offer-agent" inline>
          <HTMLSelect
            id="offer-agent"
            value={agentId}
            onChange={(event) => setAgentId(Number(event.currentTarget.value))}
            options={principals.map((p) => ({ value: p.agentId, label: `${p.name} (${p.type})` }))}
          />
        </FormGroup>
      ) : null}
      <div className="pf-muted pf-small" data-testid="make-offer-limits">
        Your limits ({agent?.name ?? 'your agent'}): {agent ? limitsOf(agent.criteria) : '…'}
      </div>
      {field('loan', 'Loan', '£315,000')}
      {field('rate', 'Rate (%)', '4.35')}
      {field('term', 'Term (years)', '25')}
      {field('fee', 'Fee', '£999')}
      {problem ? <div className="pf-muted pf-small">{problem}</div> : null}
      {refusal ? (
        <Callout intent={Intent.WARNING} data-testid="make-offer-refused">
          {refusal}
        </Callout>
      ) : null}
      <Button intent={Intent.PRIMARY} text="Send offer" disabled={!!problem || sending} loading={sending} onClick={() => void submit()} />
      <Button
        minimal
        text="Cancel"
        onClick={() => {
          setOpen(false);
          // Back to the button that opened the form, not the page.
          requestAnimationFrame(() => openButton.current?.focus());
        }}
      />
    </Card>
  );
}
