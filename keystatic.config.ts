import { config, fields, singleton } from '@keystatic/core';
import { editorBody, editorFields, readable } from './src/content/editor-fields';
import {
  legalBody,
  legalFields,
  offerDetailFields,
  offerFields,
  welcomeBody,
  welcomeFields,
} from './src/content/fields';
import { paths } from './src/routes';

/**
 * The content editors' editor at /keystatic (docs/decisions/059-content-editor-keystatic.md): the
 * same files the content collections read (src/content.config.ts), with the same fields
 * (src/content/fields.ts). Under `npm run dev` it saves to `src/content/` on this machine; a build
 * made with `PUBLIC_KEYSTATIC_GITHUB_REPO` set commits to that repository through GitHub's sign-in
 * instead (src/build/content-editor.mjs decides whether a build has the editor at all).
 */
const repository = import.meta.env.PUBLIC_KEYSTATIC_GITHUB_REPO;

const welcomePage = (label: string, page: string, previewUrl: string) =>
  singleton({
    label,
    path: `src/content/welcome/${page}`,
    format: { contentField: 'body' },
    previewUrl,
    schema: { ...editorFields(welcomeFields), body: editorBody(welcomeBody) },
  });

export default config({
  storage: repository
    ? { kind: 'github', repo: repository as `${string}/${string}` }
    : { kind: 'local' },
  ui: {
    brand: { name: 'Member Concierge' },
    navigation: {
      'Welcome pages': ['aboutUs', 'aboutYou', 'contactInfo'],
      Dashboard: ['offers'],
      'Legal pages': ['terms'],
    },
  },
  singletons: {
    aboutUs: welcomePage('About us (step 1)', 'about-us', paths.aboutUs),
    aboutYou: welcomePage('About you (step 2)', 'about-you', paths.aboutYou),
    contactInfo: welcomePage('Contact info (step 3)', 'contact-info', paths.contactInfo),
    offers: singleton({
      label: 'Partner offers',
      path: 'src/content/offers',
      format: { data: 'yaml' },
      // One group of fields per partner, under its id: the partners are the product's
      // (docs/PRODUCT.md §2.3), so editors change each offer's words and address, never the list.
      schema: Object.fromEntries(
        offerFields.id.options.map((partner) => [
          partner,
          fields.object(editorFields(offerDetailFields), { label: readable(partner) }),
        ]),
      ),
    }),
    terms: singleton({
      label: 'Terms of service',
      path: 'src/content/legal/terms',
      format: { contentField: 'body' },
      previewUrl: paths.terms,
      schema: { ...editorFields(legalFields), body: editorBody(legalBody) },
    }),
  },
});
