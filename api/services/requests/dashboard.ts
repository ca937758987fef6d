import type { Database } from '../../db/client.ts';
import { OPEN_REQUEST_STATUSES } from '../../db/schema/index.ts';
import { PARTNER_OFFER_IDS, type PartnerOfferId } from '../../../contract/partner-offers.ts';
import {
  listRecentUpdates,
  type RecentUpdateAnswer,
  type RequestSummaryAnswer,
} from './request-answers.ts';
import { listRequestSummaries } from './request-list.ts';
import { listCategories, type CategoryAnswer } from './request-categories.ts';

/** How many open requests and timeline entries the dashboard shows. */
const DASHBOARD_LIST_LENGTH = 5;

interface DashboardAnswer {
  open_request_count: number;
  /** The most recently updated open requests. */
  open_requests: RequestSummaryAnswer[];
  /** The latest timeline entries of all the member's requests, newest first. */
  recent_updates: RecentUpdateAnswer[];
  categories: CategoryAnswer[];
  offers: PartnerOfferId[];
}

/** What the member's dashboard shows. */
export async function describeDashboard(
  database: Database,
  userId: number,
): Promise<DashboardAnswer> {
  const openFilter = { userId, statuses: OPEN_REQUEST_STATUSES };
  const [openRequests, recentUpdates, categories] = await Promise.all([
    listRequestSummaries(database, openFilter, { limit: DASHBOARD_LIST_LENGTH, offset: 0 }),
    listRecentUpdates(database, userId, DASHBOARD_LIST_LENGTH),
    listCategories(database),
  ]);
  return {
    open_request_count: openRequests.totalCount,
    open_requests: openRequests.summaries,
    recent_updates: recentUpdates,
    categories,
    offers: [...PARTNER_OFFER_IDS],
  };
}
