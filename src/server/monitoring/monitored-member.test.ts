import { describe, expect, it } from 'vitest';
import { INTERNAL_COMPANY_NAMES } from '../../../platform/internal-companies.ts';
import { monitoredMember } from './monitored-member';

const member = (company: string | null) => ({
  external_id: '0f4e5a1c-6a38-4c3e-9d59-0d9a9a2f2a11',
  company: company === null ? null : { name: company },
});

describe('monitoredMember', () => {
  it('is the external id, flagged internal for a member of either internal company', () => {
    for (const company of INTERNAL_COMPANY_NAMES) {
      expect(monitoredMember(member(company), INTERNAL_COMPANY_NAMES)).toEqual({
        id: '0f4e5a1c-6a38-4c3e-9d59-0d9a9a2f2a11',
        internal: true,
      });
    }
  });

  it('is not internal for another company, or none', () => {
    expect(monitoredMember(member('Acme Health'), INTERNAL_COMPANY_NAMES).internal).toBe(false);
    expect(monitoredMember(member(null), INTERNAL_COMPANY_NAMES).internal).toBe(false);
  });

  it('follows the names it is given', () => {
    expect(monitoredMember(member('Acme Health'), ['Acme Health']).internal).toBe(true);
  });
});
