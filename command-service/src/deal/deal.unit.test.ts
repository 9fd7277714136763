import { describe, it } from 'vitest';
import { dealOpened, SAMPLE_DEAL_ID } from '@pf/events/testing';
import { Conflict, Invalid, NotFound } from '@pf/infra';
import { deciderSpec } from '../testing/decider-spec';
import { dealDecider, type DealEvent } from './deal';

const dealId = SAMPLE_DEAL_ID;
const opened = dealOpened();
const stage = (from: string, to: string) => ({ type: 'DealStageChanged', data: { dealId, from, stage: to } }) as DealEvent;
const status = (from: string, to: string) => ({ type: 'DealStatusChanged', data: { dealId, from, status: to } }) as DealEvent;
const spec = deciderSpec(dealDecider);
const change = (changes: object, firmId = 'alice') => ({ type: 'ChangeDeal' as const, dealId, firmId, ...changes });

describe('deal decider', () => {
  it('opens once', () => {
    spec.given([]).when({ type: 'OpenDeal', deal: opened.data }).then([opened]);
    spec.given([opened]).when({ type: 'OpenDeal', deal: opened.data }).then([]);
  });

  it('opens a deal made by hand only on the borrower’s need committed to it, and refuses a second deal naming the first', () => {
    const manual = { ...opened.data, source: 'manual' as const, agreedInConversationId: null };
    const committedTo = (id: string, conversationId: number | null) => ({
      committed: { conversationId, dealId: id, lenderAgentId: manual.lender.agentId, lenderName: 'Northgate Building Society' },
    });
    spec
      .given([])
      .when({ type: 'OpenDeal', deal: manual, need: committedTo(dealId, null) })
      .then([{ type: 'DealOpened', data: manual }]);
    spec
      .given([])
      .when({ type: 'OpenDeal', deal: manual, need: committedTo('earlier-deal', 7) })
      .thenThrows(
        Conflict,
        `${manual.borrower.name} already has an agreed deal with Northgate Building Society (agreed in conversation #7): a second deal for this borrower is refused until that deal is cancelled, or ${manual.borrower.name}'s operator edits the need or asks for another lender`,
      );
    spec
      .given([])
      .when({ type: 'OpenDeal', deal: manual, need: committedTo('earlier-deal', null) })
      .thenThrows(Conflict, /\(made by hand\)/);
    spec
      .given([])
      .when({ type: 'OpenDeal', deal: manual, need: { committed: null } })
      .thenThrows(Invalid);
  });

  it('folds with the deals view’s rules: the first opening counts', () => {
    const openedAgain = { ...opened, data: { ...opened.data, lender: { ...opened.data.lender, ownerId: 'mallory' } } };
    spec
      .given([opened, openedAgain])
      .when(change({ stage: 'valuation' }, 'mallory'))
      .thenThrows(NotFound);
    spec
      .given([opened, openedAgain])
      .when(change({ stage: 'valuation' }, 'bob'))
      .then([stage('application', 'valuation')]);
  });

  it('is visible only to the owners of its agents', () => {
    spec
      .given([opened])
      .when(change({ stage: 'valuation' }, 'mallory'))
      .thenThrows(NotFound, `Deal ${dealId} not found`);
    spec
      .given([])
      .when(change({ stage: 'valuation' }))
      .thenThrows(NotFound);
    spec
      .given([opened])
      .when(change({ stage: 'valuation' }, 'bob'))
      .then([stage('application', 'valuation')]);
  });

  it('completes only from underwriting, and completing the stage completes the deal', () => {
    spec
      .given([opened])
      .when(change({ stage: 'completed' }))
      .thenThrows(Invalid, 'stage: A deal reaches completion only from underwriting; this one is at application');
    spec
      .given([opened, stage('application', 'valuation')])
      .when(change({ status: 'completed' }))
      .thenThrows(Invalid, 'status: A deal cannot complete before underwriting; this one is at valuation');
    const underwriting = [opened, stage('application', 'valuation'), stage('valuation', 'underwriting')];
    spec
      .given(underwriting)
      .when(change({ stage: 'completed' }))
      .then([stage('underwriting', 'completed'), status('active', 'completed')]);
    spec
      .given(underwriting)
      .when(change({ status: 'completed' }))
      .then([stage('underwriting', 'completed'), status('active', 'completed')]);
    spec
      .given([...underwriting, stage('underwriting', 'completed'), status('active', 'completed')])
      .when(change({ status: 'pending' }))
      .thenThrows(Invalid, 'its status is final');
  });

  it('keeps a cancelled deal as it is', () => {
    spec
      .given([opened, status('active', 'cancelled')])
      .when(change({ status: 'active' }))
      .thenThrows(Invalid, 'a cancelled deal is final');
    spec
      .given([opened, status('active', 'cancelled')])
      .when(change({ propertyAddress: '1 High St' }))
      .thenThrows(Invalid, 'a cancelled deal is final');
  });

  it('moves between active and pending, and records only real changes', () => {
    spec
      .given([opened])
      .when(change({ status: 'pending' }))
      .then([status('active', 'pending')]);
    spec
      .given([opened])
      .when(change({ status: 'active', stage: 'application' }))
      .then([]);
    spec
      .given([opened])
      .when(change({ propertyAddress: '1 High St', targetCompletion: '2026-09-30' }))
      .then([{ type: 'DealEdited', data: { dealId, propertyAddress: '1 High St', targetCompletion: '2026-09-30' } }]);
  });
});
