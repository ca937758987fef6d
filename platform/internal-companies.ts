/**
 * The web tier flags members of these companies as internal staff (in error reports, with the
 * INTERNAL_COMPANY_NAMES setting). The demo data creates both; they have no slug, so nobody can
 * join them through a sign-up link.
 */
export const INTERNAL_COMPANY_NAMES = ['Portal Concierge HQ', 'Portal Operations'] as const;
