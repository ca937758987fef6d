/**
 * The fixed choices of the member's profile (PATCH /users/current), in a module without
 * dependencies so that the web tier can import the same lists for its forms.
 */

/** What a member may ask the concierge for help with (the AboutYou survey). */
export const HELP_TOPICS = [
  'home_and_moving',
  'travel',
  'health_and_wellness',
  'finance_and_legal',
  'family_and_care',
  'everyday_errands',
] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

/** How a member prefers to be contacted; `phone` and `text` need a contact phone. */
export const CONTACT_METHODS = ['email', 'phone', 'text'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];
