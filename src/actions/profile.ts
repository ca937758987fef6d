import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { contactMethods, helpTopics } from '../lib/help-topics';
import {
  onboardingDoneMessage,
  profileFallbackMessage,
  unsavableCharacterMessage,
} from '../lib/messages';
import { paths } from '../routes';
import { updateProfile } from '../server/api/accounts';
import { addFlash } from '../server/session/flash';
import type { Navigation } from '../server/forms/navigation';
import { finishOnboarding } from '../server/session/onboarding';
import { apiFailure } from './api-failure';
import { formText } from './fields';

const topicIds = helpTopics.map(({ id }) => id) as [string, ...string[]];
const methodIds = contactMethods.map(({ id }) => id) as [string, ...string[]];

/** About-you (docs/PRODUCT.md §7.2): what the member wants help with; then the last step. */
export const saveInterests = defineAction({
  accept: 'form',
  input: z.object({
    help_topics: z.array(z.enum(topicIds, 'Choose from the topics shown')).max(topicIds.length),
  }),
  handler: async ({ help_topics }, context): Promise<Navigation> => {
    try {
      await updateProfile(await context.locals.api(), { help_topics });
    } catch (error) {
      throw apiFailure(error, profileFallbackMessage, { 'user.help_topics': 'help_topics' });
    }
    return { redirectTo: paths.contactInfo };
  },
});

/**
 * Contact info (docs/PRODUCT.md §7.2): a phone number and how the member likes to be reached. A
 * call or a text needs the number. The last welcome page: on to the Dashboard.
 */
export const saveContact = defineAction({
  accept: 'form',
  input: z
    .object({
      phone_number: formText(
        z
          .string()
          .trim()
          .refine(
            (number) => number === '' || number.replace(/\D/g, '').length === 10,
            'Enter a US phone number with its area code, like (555) 123-4567',
          ),
        unsavableCharacterMessage('Phone number'),
      ),
      preferred_contact_method: formText(z.enum(methodIds, 'Choose how we should reach you')),
    })
    .refine((form) => form.preferred_contact_method === 'email' || form.phone_number !== '', {
      path: ['phone_number'],
      message: 'Enter a phone number to be called or texted on',
    }),
  handler: async (form, context): Promise<Navigation> => {
    try {
      await updateProfile(await context.locals.api(), {
        phone_number: form.phone_number || null,
        preferred_contact_method: form.preferred_contact_method as 'email' | 'phone' | 'text',
      });
    } catch (error) {
      throw apiFailure(error, profileFallbackMessage, {
        'user.phone_number': 'phone_number',
        'user.preferred_contact_method': 'preferred_contact_method',
      });
    }
    finishOnboarding(context.cookies);
    addFlash(context.cookies, {
      message: onboardingDoneMessage,
      type: 'success',
      autoDismiss: true,
    });
    return { redirectTo: paths.dashboard };
  },
});
