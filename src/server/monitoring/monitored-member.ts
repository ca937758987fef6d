import type { MonitoredMember } from '../../../platform/monitoring.ts';
import type { CurrentUser } from '../api/profile';

/**
 * The member as error reports know them: their `external_id`, and whether their company is one
 * of the internal ones (INTERNAL_COMPANY_NAMES). Never an email or a name.
 */
export function monitoredMember(
  user: Pick<CurrentUser, 'external_id' | 'company'>,
  internalCompanyNames: readonly string[],
): MonitoredMember {
  const company = user.company?.name;
  return {
    id: user.external_id,
    internal: company !== undefined && internalCompanyNames.includes(company),
  };
}
