import { getEntry } from 'astro:content';
import { type PartnerOfferId } from '../../contract/partner-offers.ts';

/** The partner's address for an offer, from the editor-owned offers file. */
export async function partnerUrl(slug: PartnerOfferId): Promise<string> {
  const offer = await getEntry('offers', slug);
  if (!offer) throw new Error(`The offers file has no entry for ${slug}`);
  return offer.data.url;
}
