import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { contactMethods, helpTopics } from '../lib/help-topics';
import {
  onboardingDoneMessage,
  profileFallbackMessage,
  profileSavedMessage,
  profileSaveFallbackMessage,
  unsavableCharacterMessage,
} from '../lib/messages';
import { paths } from '../routes';
import { updateProfile } from '../server/api/profile';
import { addFlash } from '../server/session/flash';
import type { Navigation } from '../server/forms/navigation';
import { finishOnboarding } from '../server/session/onboarding';
import { apiFailure } from './api-failure';
import { firstNameField, formText, lastNameField } from './fields';

const topicIds = helpTopics.map(({ id }) => id) as [string, ...string[]];
const methodIds = contactMethods.map(({ id }) => id) as [string, ...string[]];

const helpTopicsField = z
  .array(z.enum(topicIds, 'Choose from the topics shown'))
  .max(topicIds.length);

/** A phone number and how the member likes to be reached: contact info and the profile alike. */
const contactFields = {
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
};

/** A call or a text needs the number. */
const phoneForCallsAndTexts = (form: { phone_number: string; preferred_contact_method: string }) =>
  form.preferred_contact_method === 'email' || form.phone_number !== '';
const phoneNeeded = {
  path: ['phone_number'],
  message: 'Enter a phone number to be called or texted on',
};

const contactChange = (form: { phone_number: string; preferred_contact_method: string }) => ({
  phone_number: form.phone_number || null,
  preferred_contact_method: form.preferred_contact_method as 'email' | 'phone' | 'text',
});

const contactFieldsOfApi = {
  'user.phone_number': 'phone_number',
  'user.preferred_contact_method': 'preferred_contact_method',
};

/** About-you: what the member wants help with; then the last step. */
export const saveInterests = defineAction({
  accept: 'form',
  input: z.object({ help_topics: helpTopicsField }),
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
 * Contact info: a phone number and how the member likes to be reached. A call or a text needs the
 * number. The last welcome page: on to the Dashboard.
 */
export const saveContact = defineAction({
  accept: 'form',
  input: z.object(contactFields).refine(phoneForCallsAndTexts, phoneNeeded),
  handler: async (form, context): Promise<Navigation> => {
    try {
      await updateProfile(await context.locals.api(), contactChange(form));
    } catch (error) {
      throw apiFailure(error, profileFallbackMessage, contactFieldsOfApi);
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

/**
 * The Account page's Profile: names, help topics and contact, with the rules of sign-up and of the
 * welcome pages, saved in one call; the page again, with a toast.
 */
export const saveProfile = defineAction({
  accept: 'form',
  input: z
    .object({
      name: firstNameField,
      last_name: lastNameField,
      help_topics: helpTopicsField,
      ...contactFields,
    })
    .refine(phoneForCallsAndTexts, phoneNeeded),
  handler: async (form, context): Promise<Navigation> => {
    try {
      await updateProfile(await context.locals.api(), {
        name: form.name,
        last_name: form.last_name,
        help_topics: form.help_topics,
        ...contactChange(form),
      });
    } catch (error) {
      throw apiFailure(error, profileSaveFallbackMessage, {
        'user.name': 'name',
        'user.last_name': 'last_name',
        'user.help_topics': 'help_topics',
        ...contactFieldsOfApi,
      });
    }
    addFlash(context.cookies, { message: profileSavedMessage, type: 'success', autoDismiss: true });
    return { redirectTo: paths.account };
  },
});
