/**
 * The partner offers, by id. Every member may see all of them; their words
 * and addresses are the portal's editable content (src/content/offers.yaml), and the portal
 * redirects to them by these ids.
 */
export const PARTNER_OFFER_IDS = [
  'term-life-insurance',
  'auto-insurance',
  'home-insurance',
  'home-warranty',
  'renters-insurance',
  'pet-insurance',
  'wills-and-trusts',
] as const;
export type PartnerOfferId = (typeof PARTNER_OFFER_IDS)[number];
