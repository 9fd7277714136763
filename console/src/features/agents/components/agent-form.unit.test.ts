import { describe, expect, it } from 'vitest';
import { createAgentInput, readCriteria, type AgentDefaults } from '@pf/events';
import { formFromDefaults, toInput } from './agent-form';

const defaults: AgentDefaults = {
  minLoanAmount: 150_000,
  maxLoanAmount: 300_000,
  preferredLTV: 60,
  preferredTerm: 20,
  propertyTypes: ['residential', 'buyToLet'],
  regions: ['leeds', 'bristol'],
  responseTime: 4,
  autoNegotiate: false,
};

describe('Create Agent pre-filled from Settings → Agent Defaults', () => {
  it('writes every default as criteria text that the agents read back to the same figures', () => {
    const form = formFromDefaults({ ...defaults, saved: true });
    expect(form.criteria).toMatchObject({
      loanAmount: '£150,000 to £300,000',
      maxLtv: '60%',
      loanTermMax: '20 years',
      propertyType: 'residential, buy-to-let',
      region: 'leeds, bristol',
      propertyValueMin: '£250,000',
      propertyValueMax: '£500,000',
    });
    const read = readCriteria(createAgentInput.parse({ ...toInput(form), name: 'Defaults', type: 'borrower' }).criteria);
    expect(read.unreadable).toEqual([]);
    expect(read.loanAmount).toEqual({ min: 150_000, max: 300_000 });
    expect(read.maxLtv).toBe(0.6);
    expect(read.termYears).toEqual({ min: null, max: 20 });
    expect(read.propertyTypes).toEqual(['residential', 'buy-to-let']);
    expect(read.regions).toEqual(['leeds', 'bristol']);
  });

  it('carries auto-negotiate off into the request, and leaves the form blank while no defaults are saved', () => {
    expect(toInput(formFromDefaults({ ...defaults, saved: true })).autoNegotiate).toBe(false);
    expect('autoNegotiate' in toInput(formFromDefaults({ ...defaults, autoNegotiate: true, saved: true }))).toBe(false);
    const blank = formFromDefaults({ ...defaults, saved: false });
    expect(Object.values(blank.criteria).every((text) => text === '')).toBe(true);
    expect(blank.autoNegotiate).toBe(true);
    // The response time pre-fills too (sample, 24 hours, while none is saved) and goes in the request.
    expect(toInput(formFromDefaults({ ...defaults, responseTime: 4, saved: true })).responseTime).toBe(4);
    expect(blank.responseTime).toBe(24);
  });
});
