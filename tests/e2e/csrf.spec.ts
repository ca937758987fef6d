import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { expect, test } from '@playwright/test';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { totpCodeAt, totpStep } from '../../api/services/factors/totp.ts';
import { decodeActionData } from '../../src/islands/island-actions';
import {
  createSoftwareAuthenticator,
  type SoftwareAuthenticator,
} from '../support/software-authenticator';
import { newPerson } from './support/accounts';
import { anonymousVisitor, type HttpVisitor } from './support/http-visitor';
import { member } from './support/journeys';
import {
  companyDomains,
  startPortalWithCompanySignIn,
  type PortalWithCompanySignIn,
} from './support/company-sign-in';
import { startPortalServer, type PortalServer } from './support/portal-server';
import { signInAtOidcProvider } from '../support/identity-provider-visitor';

/**
 * Cross-site request forgery against every action of the backend-for-frontend
 * (docs/PRODUCT.md §11.1), over plain HTTP: each forged call is refused with 403 before the
 * action runs, and nothing it would have changed has changed. Every forged call carries a payload
 * that the same call with the victim's own token then carries through, writing what it writes:
 * a refusal for a payload that could never succeed would prove nothing.
 */

// A server of this file's own: its sign-ups are nobody else's (the shared server's sign-up limit
// per address is for the journeys), and the tests here run one after another on it.
test.describe.configure({ mode: 'default' });
let portal: PortalServer;
/** The portal of the test under way, when its companies sign their people in. */
let withCompanySignIn: PortalWithCompanySignIn | undefined;
test.beforeAll(async () => {
  portal = await startPortalServer({ env: { OUTBOX_VIEWER: 'true' } });
});
test.afterAll(async () => {
  await portal.stop();
  await withCompanySignIn?.stop();
});

/** Who the victim of one action is, signed in where the action needs it. */
interface Victims {
  /** The victim's browser: a member signed in, or a visitor before sign-in. */
  readonly victim: HttpVisitor;
  /** Another visitor of the same kind, whose own token a forgery may carry. */
  readonly attacker: HttpVisitor;
}

/** A call that, sent with the victim's own token, succeeds and changes something. */
interface PreparedCall {
  /** The page whose form posts it (JavaScript off). */
  readonly page: string;
  readonly fields: Record<string, string>;
  /**
   * What the action writes, read back through the site: it must be the same after every
   * forgery, and different after the same call with the right token.
   */
  readonly written: () => Promise<unknown>;
}

interface ActionUnderAttack {
  /** Who the victim is: a member signed in, or a visitor before sign-in (login CSRF and the like). */
  readonly victim: 'member' | 'visitor';
  /**
   * Prepares a payload that would succeed (fresh accounts, real links and codes), on the victims
   * of one test. Actions are prepared and attacked in this table's order, on one portal.
   */
  readonly prepare: (
    victims: Victims,
    shared: SharedVictims,
  ) => PreparedCall | Promise<PreparedCall>;
}

/** Accounts some actions share within one test (the code texted by one is verified by the next). */
interface SharedVictims {
  /** A member with a phone, signed in and texted a code. */
  codeAsked?: HttpVisitor;
  /** An account locked by wrong passwords, and its email. */
  locked?: { email: string; password: string };
  /** A request of the victim member's, for the note and cancel actions. */
  requestId?: string;
  /** A new member whose address is not confirmed yet, past the phone offer. */
  unproven?: Awaited<ReturnType<typeof signedUpPerson>>;
  /** A new member confirming a phone from the Account area, and their password. */
  addingPhone?: { visitor: HttpVisitor; password: string };
  /** A new member setting up an authenticator app from the Account area, and their words. */
  addingApp?: { visitor: HttpVisitor; email: string; password: string };
  /** A new member adding a passkey, their words, and the device that holds it. */
  addingPasskey?: {
    visitor: HttpVisitor;
    email: string;
    password: string;
    device: SoftwareAuthenticator;
  };
}

/**
 * An island's call of an action with the visitor's own token, read as the island reads it: how
 * the tests get the WebAuthn options a ceremony needs.
 */
async function islandCall(visitor: HttpVisitor, name: string): Promise<unknown> {
  const answer = await visitor.send(`/_actions/${name}`, {
    method: 'POST',
    headers: {
      origin: visitor.origin,
      'sec-fetch-site': 'same-origin',
      'x-xsrf-token': visitor.xsrfToken(),
    },
    body: new FormData(),
  });
  expect(answer.status, name).toBe(200);
  return decodeActionData(await answer.text());
}

/** The ceremony's options an options action answered. */
async function passkeyOptions<Options>(visitor: HttpVisitor, name: string): Promise<Options> {
  const { options } = (await islandCall(visitor, name)) as { options: Options };
  return options;
}

/** Where a passkey answers from: the portal's origin, served as localhost (browsers refuse IPs). */
const passkeyOrigin = (visitor: HttpVisitor) => visitor.origin.replace('127.0.0.1', 'localhost');

const aToken = 'a'.repeat(43);
const phone = '(555) 010-0199';
/** The phone a member adds from the Account area, as typed and as the outbox names it. */
const accountPhone = { typed: '(555) 010-0288', e164: '+15550100288' };
/** How often the API texts a new code to one member, and when this file last asked (a margin). */
const codeResendIntervalMs = 61_000;
let lastCodeAskedAt = 0;

/** The seeded member with a phone (api/demo/seed.ts), asked for a code after the password. */
const verifiedMember = { email: 'verified@example.com', password: member.password };

/** The outbox viewer's page (the portal has OUTBOX_VIEWER on). */
const outbox = async (origin: string) =>
  (await (await anonymousVisitor(origin)).send('/dev/outbox')).text();

/** The messages of the outbox addressed to `to` (an email address or "Text message to"). */
async function outboxMessages(origin: string, to: string): Promise<string[]> {
  return (await outbox(origin)).split('<article').filter((message) => message.includes(to));
}

/** The newest link the outbox holds for `email` to `path` (`/reset-password/`, `/unlock/`). */
async function newestLinkToken(origin: string, email: string, path: string): Promise<string> {
  const pattern = new RegExp(`${path}([A-Za-z0-9_-]{20,})`);
  for (const message of await outboxMessages(origin, email)) {
    const token = pattern.exec(message)?.[1];
    if (token) return token;
  }
  throw new Error(`No ${path} link for ${email} in the outbox`);
}

/** Whether `credentials` sign in right now (a visitor of its own tries). */
async function signsIn(origin: string, credentials: { email: string; password: string }) {
  const visitor = await anonymousVisitor(origin);
  const answer = await visitor.postForm('/sign-in?_action=auth.signIn', { ...credentials });
  return answer.status === 303;
}

/** A browser signed in with `credentials` (to the Dashboard or to the MFA step). */
async function signedInAs(origin: string, credentials: { email: string; password: string }) {
  const visitor = await anonymousVisitor(origin);
  const answer = await visitor.postForm('/sign-in?_action=auth.signIn', { ...credentials });
  expect(answer.status, `sign-in of ${credentials.email}`).toBe(303);
  return visitor;
}

/** Signs a new person up (the phone offer left unanswered) and returns their browser and words. */
async function signedUpPerson(origin: string) {
  const person = newPerson('Forge');
  const visitor = await anonymousVisitor(origin);
  const answer = await visitor.postForm('/sign-up?_action=auth.signUp', {
    name: person.firstName,
    last_name: person.lastName,
    email: person.email,
    password: person.password,
    terms_of_service: 'accepted',
  });
  expect(answer.status, 'sign-up').toBe(303);
  return { visitor, email: person.email, password: person.password };
}

/** Where a visitor's visit to `path` lands: its status and where it is sent. */
/** The victim becomes `other`: the same browser, holding only `other`'s cookies. */
function takeCookiesOf(victim: HttpVisitor, other: { cookies: ReadonlyMap<string, string> }) {
  const cookies = [...other.cookies];
  victim.cookies.clear();
  for (const [name, value] of cookies) victim.cookies.set(name, value);
}

async function landing(visitor: HttpVisitor, path: string) {
  const answer = await visitor.send(path);
  return { status: answer.status, location: answer.headers.get('location') };
}

/**
 * A member of Acme's domain (with an authenticator app and a fresh set of recovery codes, when
 * asked) whose company sign-in, started in the victim's browser, waits for them to prove the
 * account on CompanySignInLink.
 */
async function awaitingCompanyLink(
  victim: HttpVisitor,
  { withApp = false }: { withApp?: boolean } = {},
): Promise<{ password: string; appKey: Uint8Array | undefined; recoveryCodes: string[] }> {
  if (!withCompanySignIn) throw new Error('The portal has no company sign-in');
  const person = {
    ...newPerson('Linked'),
    email: `linked-${randomUUID().slice(0, 8)}@${companyDomains.acme}`,
  };
  const member = await anonymousVisitor(victim.origin);
  const signedUp = await member.postForm('/sign-up?_action=auth.signUp', {
    name: person.firstName,
    last_name: person.lastName,
    email: person.email,
    password: person.password,
    terms_of_service: 'accepted',
  });
  expect(signedUp.status, 'sign-up').toBe(303);
  let appKey: Uint8Array | undefined;
  let recoveryCodes: string[] = [];
  if (withApp) {
    const skipped = await member.postForm('/mfa-enrollment?_action=mfa.skip', {});
    expect(skipped.status, 'the phone offer skipped').toBe(303);
    const setup = await member.postForm('/account/security?_action=account.setUpApp', {});
    const key = /[A-Z2-7]{4}(?: [A-Z2-7]{4}){7}/.exec(await setup.text())?.[0] ?? '';
    appKey = decodeBase32IgnorePadding(key.replaceAll(' ', ''));
    const confirmed = await member.postForm('/account/security?_action=account.confirmApp', {
      code: totpCodeAt(appKey, totpStep(new Date())),
    });
    expect(confirmed.status, 'the app confirmed').toBeLessThan(400);
    const renewed = await member.postForm('/account/security?_action=account.renewRecoveryCodes', {
      current_password: person.password,
    });
    recoveryCodes = [
      ...(await renewed.text()).matchAll(/<code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g),
    ].map(([, shown]) => shown ?? '');
    expect(recoveryCodes, 'the new recovery codes shown').toHaveLength(10);
  }
  const atProvider = { email: person.email, password: `provider-${randomUUID()}` };
  withCompanySignIn.provider.addAccount({
    ...atProvider,
    subject: randomUUID(),
    givenName: person.firstName,
    familyName: person.lastName,
  });
  const started = await victim.postForm('/sign-in?_action=auth.signIn', {
    email: person.email,
    password: '',
  });
  expect(started.headers.get('location'), 'company sign-in started').toBe('/sign-in/company');
  const onTheWay = await (await victim.send('/sign-in/company')).text();
  const providerLink = /<a class="[^"]*" href="(http[^"]+)"/.exec(onTheWay)?.[1] ?? '';
  const callback = await signInAtOidcProvider(
    providerLink.replaceAll('&amp;', '&'),
    `${victim.origin}/sign-in/company/callback`,
    atProvider,
  );
  const back = await victim.send(`${callback.pathname}${callback.search}`);
  expect(back.headers.get('location'), 'the account is to be proven').toBe('/sign-in/company/link');
  return { password: person.password, appKey, recoveryCodes };
}

/** Every action src/actions/index.ts exports, by its name. */
const actions: Record<string, ActionUnderAttack> = {
  'auth.signIn': {
    victim: 'visitor',
    prepare: ({ victim }) => ({
      page: '/sign-in',
      fields: { ...member },
      written: async () => (await landing(victim, '/dashboard')).status,
    }),
  },
  'auth.signUp': {
    victim: 'visitor',
    prepare: ({ victim }) => {
      const person = newPerson('Mallory');
      return {
        page: '/sign-up',
        fields: {
          name: person.firstName,
          last_name: person.lastName,
          email: person.email,
          password: person.password,
          terms_of_service: 'accepted',
        },
        written: () => signsIn(victim.origin, person),
      };
    },
  },
  'auth.requestPasswordReset': {
    victim: 'visitor',
    prepare: ({ victim }) => ({
      page: '/forgot-password',
      fields: { email: member.email },
      written: async () => (await outboxMessages(victim.origin, member.email)).length,
    }),
  },
  'auth.resetPassword': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      // A seeded account of this portal's own, given a new password each time.
      const account = {
        email: 'concierge@example.com',
        visitor: await anonymousVisitor(victim.origin),
      };
      const asked = await account.visitor.postForm(
        '/forgot-password?_action=auth.requestPasswordReset',
        {
          email: account.email,
        },
      );
      expect(asked.status, 'reset request').toBeLessThan(400);
      const token = await newestLinkToken(victim.origin, account.email, '/reset-password/');
      const password = `chosen by the attacker ${randomUUID()}`;
      return {
        page: `/reset-password/${token}`,
        fields: { token, password, password_confirmation: password },
        written: () => signsIn(victim.origin, { email: account.email, password }),
      };
    },
  },
  'auth.requestUnlockLink': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      // A seeded account of this portal's own; ten wrong passwords lock it (docs/PRODUCT.md §11).
      const account = { email: 'operations@example.com', password: member.password };
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await signsIn(victim.origin, { email: account.email, password: 'not the password' });
      }
      expect(await signsIn(victim.origin, account), 'locked').toBe(false);
      shared.locked = { email: account.email, password: account.password };
      return {
        page: `/unlock/${aToken}`,
        fields: { email: account.email },
        written: async () => (await outboxMessages(victim.origin, account.email)).length,
      };
    },
  },
  'auth.unlockAccount': {
    victim: 'visitor',
    prepare: async ({ victim }, { locked }) => {
      if (!locked) throw new Error('auth.requestUnlockLink locks an account first');
      const token = await newestLinkToken(victim.origin, locked.email, '/unlock/');
      return {
        page: `/unlock/${token}`,
        fields: { token },
        written: () => signsIn(victim.origin, locked),
      };
    },
  },
  'mfa.skip': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const account = await signedUpPerson(victim.origin);
      // The victim is this new member, at the phone offer.
      takeCookiesOf(victim, account.visitor);
      return {
        page: '/mfa-enrollment',
        fields: {},
        written: async () => landing(victim, '/mfa-enrollment'),
      };
    },
  },
  'mfa.enroll': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const account = await signedUpPerson(victim.origin);
      takeCookiesOf(victim, account.visitor);
      return {
        page: '/mfa-enrollment',
        fields: { phone },
        written: async () => (await outboxMessages(victim.origin, 'Text message to')).length,
      };
    },
  },
  'mfa.requestCode': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      // The seeded member with a phone, asked for a code at sign-in. The API texts one code a
      // minute per member (docs/PRODUCT.md §11.2), so the second transport waits out the first's.
      const sinceLastCode = Date.now() - lastCodeAskedAt;
      if (sinceLastCode < codeResendIntervalMs) {
        await new Promise((resolve) => setTimeout(resolve, codeResendIntervalMs - sinceLastCode));
      }
      const signedIn = await victim.postForm('/sign-in?_action=auth.signIn', { ...verifiedMember });
      expect(signedIn.headers.get('location'), 'sign-in with a phone').toBe('/mfa-enrollment');
      shared.codeAsked = victim;
      return {
        page: '/mfa-enrollment',
        fields: {},
        written: async () => {
          const texts = (await outboxMessages(victim.origin, 'Text message to')).length;
          lastCodeAskedAt = Date.now();
          return texts;
        },
      };
    },
  },
  'mfa.verify': {
    victim: 'visitor',
    prepare: async ({ victim }, { codeAsked }) => {
      if (!codeAsked) throw new Error('mfa.requestCode texts a code first');
      takeCookiesOf(victim, codeAsked);
      const [newestText = ''] = await outboxMessages(victim.origin, 'Text message to');
      const code = /\b(\d{6})\b/.exec(newestText)?.[1] ?? '';
      return {
        page: '/mfa-enrollment',
        fields: { code },
        written: () => landing(victim, '/dashboard'),
      };
    },
  },
  // The demo member keeps the answers of the test before: each call chooses something else.
  'profile.saveInterests': {
    victim: 'member',
    prepare: async ({ victim }) => {
      const written = async () =>
        checkedChoices(await (await victim.send('/welcome/about-you')).text());
      const topic = (await written()).includes('travel') ? 'everyday_errands' : 'travel';
      return { page: '/welcome/about-you', fields: { help_topics: topic }, written };
    },
  },
  'profile.saveContact': {
    victim: 'member',
    prepare: async ({ victim }) => {
      const written = async () =>
        checkedChoices(await (await victim.send('/welcome/contact-info')).text());
      const method = (await written()).includes('text') ? 'phone' : 'text';
      return {
        page: '/welcome/contact-info',
        fields: { phone_number: phone, preferred_contact_method: method },
        written,
      };
    },
  },
  'profile.saveProfile': {
    victim: 'member',
    prepare: async ({ victim }) => {
      const written = async () => {
        const html = await (await victim.send('/account')).text();
        const nameInput = [...html.matchAll(/<input\b[^>]*>/g)]
          .map(([input]) => input)
          .find((input) => input.includes('name="name"'));
        return [/\bvalue="([^"]*)"/.exec(nameInput ?? '')?.[1], ...checkedChoices(html)];
      };
      const [name] = await written();
      return {
        page: '/account',
        fields: {
          name: name === 'Averil' ? 'Avery' : 'Averil',
          last_name: 'Jordan',
          help_topics: 'travel',
          phone_number: phone,
          preferred_contact_method: 'email',
        },
        written,
      };
    },
  },
  'requests.create': {
    victim: 'member',
    prepare: ({ victim }) => ({
      page: '/dashboard',
      fields: { category_id: 'travel', title: 'Forged request', details: 'Sent from another site' },
      written: () => requestLinks(victim),
    }),
  },
  'requests.addNote': {
    victim: 'member',
    prepare: async ({ victim }, shared) => {
      const made = await victim.postForm('/dashboard?_action=requests.create', {
        category_id: 'travel',
        title: 'A request of the member',
      });
      const requestId = /\/requests\/([0-9a-f-]{36})/.exec(made.headers.get('location') ?? '')?.[1];
      if (!requestId) throw new Error(`The member's request was not made (${made.status})`);
      shared.requestId = requestId;
      return {
        page: `/requests/${requestId}`,
        fields: { request_id: requestId, body: 'Forged note' },
        written: async () =>
          (await (await victim.send(`/requests/${requestId}`)).text()).split('Forged note').length,
      };
    },
  },
  'requests.cancel': {
    victim: 'member',
    prepare: ({ victim }, { requestId }) => {
      if (!requestId) throw new Error('requests.addNote makes a request first');
      return {
        page: `/requests/${requestId}`,
        fields: { request_id: requestId },
        // The cancel form is on the page while the request is open.
        written: async () =>
          (await (await victim.send(`/requests/${requestId}`)).text()).includes(
            '_action=requests.cancel',
          ),
      };
    },
  },
  'uploads.createDirectUpload': {
    victim: 'member',
    prepare: () => ({
      page: '/dashboard',
      fields: {
        filename: 'forged.pdf',
        content_type: 'application/pdf',
        byte_size: '1024',
        checksum: `${'A'.repeat(43)}=`,
      },
      // What it writes (a declared file, removed unless attached within a day) is nowhere on the
      // site; the refusals' 403 and the good call's 200 are what this test can see.
      written: () => Promise.resolve(undefined),
    }),
  },
  // The demo member's password is changed away and back: first with the member's own token (the
  // other sessions of the member end, this one stays), then the attacked call changes it back, so
  // the next test and file sign in with it as before.
  'account.changePassword': {
    victim: 'member',
    prepare: async ({ victim }) => {
      const interim = 'an interim passphrase for this test';
      const changed = await victim.postForm('/account/security?_action=account.changePassword', {
        current_password: member.password,
        password: interim,
      });
      expect(changed.headers.get('location'), 'the member changes the password').toBe(
        '/account/security',
      );
      return {
        page: '/account/security',
        fields: { current_password: interim, password: member.password },
        // Each change emails the member; the outbox is what it writes that the site shows.
        written: async () => (await outboxMessages(portal.baseURL, member.email)).length,
      };
    },
  },
  // The password given again before a factor is added: its one trace a page shows is its toast.
  'account.confirmPassword': {
    victim: 'member',
    prepare: ({ victim }) => ({
      page: '/account/security',
      fields: { current_password: member.password, return_to: '/account/security' },
      written: async () =>
        (await (await victim.send('/account/security')).text()).includes('Password confirmed'),
    }),
  },
  // One new member, whose address is unproven, for the three email actions below.
  'account.resendConfirmation': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      const account = await signedUpPerson(victim.origin);
      const skipped = await account.visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
      expect(skipped.status, 'the phone offer skipped').toBe(303);
      shared.unproven = account;
      takeCookiesOf(victim, account.visitor);
      return {
        page: '/account',
        fields: {},
        written: async () => (await outboxMessages(victim.origin, account.email)).length,
      };
    },
  },
  'account.changeEmail': {
    victim: 'visitor',
    prepare: ({ victim }, { unproven }) => {
      if (!unproven) throw new Error('account.resendConfirmation signs a member up first');
      takeCookiesOf(victim, unproven.visitor);
      const newAddress = newPerson('Moved').email;
      return {
        page: '/account/security',
        fields: { email: newAddress, current_password: unproven.password },
        written: async () => (await outboxMessages(victim.origin, newAddress)).length,
      };
    },
  },
  // A new member who skipped the offer gives a number on Sign-in and security (the mfa.enroll
  // attacked above), confirms it, then turns the step off.
  'account.confirmPhone': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      const account = await signedUpPerson(victim.origin);
      const skipped = await account.visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
      expect(skipped.status, 'the phone offer skipped').toBe(303);
      const given = await account.visitor.postForm('/account/security?_action=mfa.enroll', {
        phone: accountPhone.typed,
      });
      expect(given.status, 'the number given').toBeLessThan(400);
      takeCookiesOf(victim, account.visitor);
      shared.addingPhone = { visitor: victim, password: account.password };
      const [newestText = ''] = await outboxMessages(victim.origin, accountPhone.e164);
      const code = /\b(\d{6})\b/.exec(newestText)?.[1];
      expect(code, 'a code texted to the number').toBeTruthy();
      return {
        page: '/account/security',
        fields: { code: code ?? '' },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes(
            'On: each sign-in takes a code',
          ),
      };
    },
  },
  'account.turnOffTwoStep': {
    victim: 'visitor',
    prepare: ({ victim }, { addingPhone }) => {
      if (!addingPhone) throw new Error('account.confirmPhone turns the step on first');
      takeCookiesOf(victim, addingPhone.visitor);
      return {
        page: '/account/security',
        fields: { current_password: addingPhone.password },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes(
            'Off: your password alone',
          ),
      };
    },
  },
  // A new member sets up an authenticator app (its secret is shown only in the answer), confirms
  // it with a code computed from the key the page shows, then removes it.
  'account.setUpApp': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      const account = await signedUpPerson(victim.origin);
      const skipped = await account.visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
      expect(skipped.status, 'the phone offer skipped').toBe(303);
      takeCookiesOf(victim, account.visitor);
      shared.addingApp = { visitor: victim, email: account.email, password: account.password };
      return {
        page: '/account/security',
        fields: {},
        // A secret being set up is nowhere on the site but in the answer to the call itself.
        written: () => Promise.resolve(undefined),
      };
    },
  },
  'account.confirmApp': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      const { addingApp } = shared;
      if (!addingApp) throw new Error('account.setUpApp signs a member up first');
      takeCookiesOf(victim, addingApp.visitor);
      // The confirmation renews the session's mfa token in this browser: removeApp goes on here.
      shared.addingApp = { ...addingApp, visitor: victim };
      const setup = await victim.postForm('/account/security?_action=account.setUpApp', {});
      const key = /[A-Z2-7]{4}(?: [A-Z2-7]{4}){7}/.exec(await setup.text())?.[0];
      expect(key, 'the key of the app shown').toBeTruthy();
      // The next step's code: good from now for a minute, while the forgeries are tried.
      const code = totpCodeAt(
        decodeBase32IgnorePadding((key ?? '').replaceAll(' ', '')),
        totpStep(new Date()) + 1,
      );
      return {
        page: '/account/security',
        fields: { code },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes(
            'On: each sign-in can take a code from your authenticator app',
          ),
      };
    },
  },
  // The app came with recovery codes; new ones replace them, each time emailed.
  'account.renewRecoveryCodes': {
    victim: 'visitor',
    prepare: ({ victim }, { addingApp }) => {
      if (!addingApp) throw new Error('account.setUpApp signs a member up first');
      takeCookiesOf(victim, addingApp.visitor);
      return {
        page: '/account/security',
        fields: { current_password: addingApp.password },
        written: async () => (await outboxMessages(victim.origin, addingApp.email)).length,
      };
    },
  },
  // The same member signs in again elsewhere, up to the MFA step, and takes it with a recovery
  // code made for the purpose from the first session.
  'mfa.verifyRecoveryCode': {
    victim: 'visitor',
    prepare: async ({ victim }, { addingApp }) => {
      if (!addingApp) throw new Error('account.setUpApp signs a member up first');
      const renewed = await addingApp.visitor.postForm(
        '/account/security?_action=account.renewRecoveryCodes',
        { current_password: addingApp.password },
      );
      const codes = [
        ...(await renewed.text()).matchAll(/<code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g),
      ].map(([, shown]) => shown);
      expect(codes, 'the new recovery codes shown').toHaveLength(10);
      const [code] = codes;
      takeCookiesOf(victim, await signedInAs(victim.origin, addingApp));
      return {
        page: '/mfa-enrollment',
        fields: { code: code ?? '' },
        written: () => landing(victim, '/dashboard'),
      };
    },
  },
  // The same member signs in once more and has that browser remembered (with a recovery code made
  // for the purpose), then the first session forgets it on Devices.
  'account.forgetDevice': {
    victim: 'visitor',
    prepare: async ({ victim }, { addingApp }) => {
      if (!addingApp) throw new Error('account.setUpApp signs a member up first');
      const renewed = await addingApp.visitor.postForm(
        '/account/security?_action=account.renewRecoveryCodes',
        { current_password: addingApp.password },
      );
      const code = /<code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/.exec(await renewed.text())?.[1];
      const laptop = await signedInAs(victim.origin, addingApp);
      const remembered = await laptop.postForm('/mfa-enrollment?_action=mfa.verifyRecoveryCode', {
        code: code ?? '',
        remember_device: 'yes',
      });
      expect(remembered.status, 'the laptop remembered').toBe(303);
      takeCookiesOf(victim, addingApp.visitor);
      const devicesPage = await (await victim.send('/account/devices')).text();
      const deviceId = /name="device_id" value="([^"]+)"/.exec(devicesPage)?.[1];
      expect(deviceId, 'the remembered device is listed').toBeTruthy();
      return {
        page: '/account/devices',
        fields: { device_id: deviceId ?? '' },
        written: async () =>
          (await (await victim.send('/account/devices')).text()).includes('name="device_id"'),
      };
    },
  },
  // A new member of its own adds a passkey: the options first, then the device's answer to them.
  'account.passkeyOptions': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      const account = await signedUpPerson(victim.origin);
      const skipped = await account.visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
      expect(skipped.status, 'the phone offer skipped').toBe(303);
      shared.addingPasskey = { ...account, device: createSoftwareAuthenticator() };
      takeCookiesOf(victim, account.visitor);
      return { page: '/account/security', fields: {}, written: () => Promise.resolve(0) };
    },
  },
  'account.addPasskey': {
    victim: 'visitor',
    prepare: async ({ victim }, shared) => {
      const { addingPasskey } = shared;
      if (!addingPasskey) throw new Error('account.passkeyOptions signs a member up first');
      takeCookiesOf(victim, addingPasskey.visitor);
      // The passkey renews the session's mfa token in this browser: the next ones go on here.
      shared.addingPasskey = { ...addingPasskey, visitor: victim };
      const options = await passkeyOptions<PublicKeyCredentialCreationOptionsJSON>(
        victim,
        'account.passkeyOptions',
      );
      const credential = addingPasskey.device.register(options, passkeyOrigin(victim));
      return {
        page: '/account/security',
        fields: { name: 'Forged laptop', credential: JSON.stringify(credential) },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes('Forged laptop'),
      };
    },
  },
  // The same member signs in again elsewhere, up to the MFA step, and takes it with the passkey.
  'mfa.passkeyOptions': {
    victim: 'visitor',
    prepare: async ({ victim }, { addingPasskey }) => {
      if (!addingPasskey) throw new Error('account.passkeyOptions signs a member up first');
      takeCookiesOf(victim, await signedInAs(victim.origin, addingPasskey));
      return { page: '/mfa-enrollment', fields: {}, written: () => Promise.resolve(0) };
    },
  },
  'mfa.verifyPasskey': {
    victim: 'visitor',
    prepare: async ({ victim }, { addingPasskey }) => {
      if (!addingPasskey) throw new Error('account.passkeyOptions signs a member up first');
      takeCookiesOf(victim, await signedInAs(victim.origin, addingPasskey));
      const options = await passkeyOptions<PublicKeyCredentialRequestOptionsJSON>(
        victim,
        'mfa.passkeyOptions',
      );
      const credential = addingPasskey.device.authenticate(options, passkeyOrigin(victim));
      return {
        page: '/mfa-enrollment',
        fields: { credential: JSON.stringify(credential) },
        written: () => landing(victim, '/dashboard'),
      };
    },
  },
  // Login CSRF through a company's sign-in: the victim's browser sent to the attacker's choice.
  'auth.startCompanySignIn': {
    victim: 'visitor',
    prepare: ({ victim }) => ({
      page: '/sign-up/acme',
      fields: { company_slug: 'acme' },
      written: async () =>
        (await (await victim.send('/sign-in/company')).text()).includes('Continue to'),
    }),
  },
  // The victim came back from the provider to link an existing account with its password.
  'auth.linkCompanySignIn': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const { password } = await awaitingCompanyLink(victim);
      return {
        page: '/sign-in/company/link',
        fields: { current_password: password },
        written: async () => (await landing(victim, '/dashboard')).status,
      };
    },
  },
  // The same, the account proven by a code of its authenticator app.
  'auth.linkCompanySignInByAppCode': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const { appKey } = await awaitingCompanyLink(victim, { withApp: true });
      // The next step's code: good from now for a minute, while the forgeries are tried.
      const code = totpCodeAt(appKey ?? new Uint8Array(), totpStep(new Date()) + 1);
      return {
        page: '/sign-in/company/link',
        fields: { code },
        written: async () => (await landing(victim, '/dashboard')).status,
      };
    },
  },
  // The same, the account proven by one of its recovery codes.
  'auth.linkCompanySignInByRecoveryCode': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const { recoveryCodes } = await awaitingCompanyLink(victim, { withApp: true });
      return {
        page: '/sign-in/company/link',
        fields: { code: recoveryCodes[0] ?? '' },
        written: async () => (await landing(victim, '/dashboard')).status,
      };
    },
  },
  // A visitor signs in with the passkey alone (login CSRF with someone's passkey answer).
  'auth.passkeyOptions': {
    victim: 'visitor',
    prepare: () => ({ page: '/sign-in', fields: {}, written: () => Promise.resolve(0) }),
  },
  'auth.signInWithPasskey': {
    victim: 'visitor',
    prepare: async ({ victim }, { addingPasskey }) => {
      if (!addingPasskey) throw new Error('account.passkeyOptions signs a member up first');
      const options = await passkeyOptions<PublicKeyCredentialRequestOptionsJSON>(
        victim,
        'auth.passkeyOptions',
      );
      const credential = addingPasskey.device.authenticate(options, passkeyOrigin(victim));
      return {
        page: '/sign-in',
        fields: { credential: JSON.stringify(credential) },
        written: () => landing(victim, '/dashboard'),
      };
    },
  },
  // The first browser removes the passkey with the password.
  'account.removePasskey': {
    victim: 'visitor',
    prepare: async ({ victim }, { addingPasskey }) => {
      if (!addingPasskey) throw new Error('account.passkeyOptions signs a member up first');
      takeCookiesOf(victim, addingPasskey.visitor);
      const page = await (await victim.send('/account/security')).text();
      const passkeyId = /name="passkey_id" value="([^"]+)"/.exec(page)?.[1];
      expect(passkeyId, 'the passkey is listed').toBeTruthy();
      return {
        page: '/account/security',
        fields: { passkey_id: passkeyId ?? '', current_password: addingPasskey.password },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes('name="passkey_id"'),
      };
    },
  },
  // A new member of its own with a phone (confirmed as above), who removes it.
  'account.removePhone': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const account = await signedUpPerson(victim.origin);
      const skipped = await account.visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
      expect(skipped.status, 'the phone offer skipped').toBe(303);
      await account.visitor.postForm('/account/security?_action=mfa.enroll', {
        phone: accountPhone.typed,
      });
      const [newestText = ''] = await outboxMessages(victim.origin, accountPhone.e164);
      const confirmed = await account.visitor.postForm(
        '/account/security?_action=account.confirmPhone',
        { code: /\b(\d{6})\b/.exec(newestText)?.[1] ?? '' },
      );
      expect(confirmed.status, 'the phone confirmed').toBe(303);
      takeCookiesOf(victim, account.visitor);
      return {
        page: '/account/security',
        fields: { current_password: account.password },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes(
            'On: each sign-in takes a code',
          ),
      };
    },
  },
  'account.removeApp': {
    victim: 'visitor',
    prepare: ({ victim }, { addingApp }) => {
      if (!addingApp) throw new Error('account.setUpApp signs a member up first');
      takeCookiesOf(victim, addingApp.visitor);
      return {
        page: '/account/security',
        fields: { current_password: addingApp.password },
        written: async () =>
          (await (await victim.send('/account/security')).text()).includes(
            'On: each sign-in can take a code from your authenticator app',
          ),
      };
    },
  },
  'auth.confirmEmail': {
    victim: 'visitor',
    prepare: async ({ victim }, { unproven }) => {
      if (!unproven) throw new Error('account.resendConfirmation signs a member up first');
      const token = await newestLinkToken(victim.origin, unproven.email, '/confirm-email/');
      // Whether the member's pages still ask to confirm the address.
      const banner = async () =>
        (await (await unproven.visitor.send('/account')).text()).includes(
          'Please confirm your email address',
        );
      return { page: `/confirm-email/${token}`, fields: { token }, written: banner };
    },
  },
  // A new member of its own, who would be gone once the genuine call has run.
  'account.deleteAccount': {
    victim: 'visitor',
    prepare: async ({ victim }) => {
      const account = await signedUpPerson(victim.origin);
      const skipped = await account.visitor.postForm('/mfa-enrollment?_action=mfa.skip', {});
      expect(skipped.status, 'the phone offer skipped').toBe(303);
      takeCookiesOf(victim, account.visitor);
      return {
        page: '/account/data',
        fields: { current_password: account.password, confirmation: 'delete my account' },
        // The member's session answers until the account is gone (sign-ins here would meet the
        // API's limit per address, which this file's other actions use up).
        written: () => landing(victim, '/account/data'),
      };
    },
  },
  // Each signs the member in once more, elsewhere, and the attacked call would sign that browser
  // out: it stays signed in after every forgery, and is signed out by the genuine call.
  'account.endSession': {
    victim: 'member',
    prepare: async ({ victim }) => {
      const elsewhere = await signedInAs(portal.baseURL, member);
      // The newest use after the victim's own: the session just started elsewhere.
      const devicesPage = await (await victim.send('/account/devices')).text();
      const sessionId = /name="session_id" value="([^"]+)"/.exec(devicesPage)?.[1];
      expect(sessionId, 'the other session is listed').toBeTruthy();
      return {
        page: '/account/devices',
        fields: { session_id: sessionId ?? '' },
        written: async () => (await landing(elsewhere, '/dashboard')).status,
      };
    },
  },
  'account.endOtherSessions': {
    victim: 'member',
    prepare: async () => {
      const elsewhere = await signedInAs(portal.baseURL, member);
      return {
        page: '/account/devices',
        fields: {},
        written: async () => (await landing(elsewhere, '/dashboard')).status,
      };
    },
  },
  // Last: it ends the session the member's other actions use.
  'auth.signOut': {
    victim: 'member',
    prepare: ({ victim }) => ({
      page: '/dashboard',
      fields: {},
      written: async () => (await landing(victim, '/dashboard')).status,
    }),
  },
};

/** The values of the checked choices and the filled text fields of a page's form. */
function checkedChoices(html: string): string[] {
  return [...html.matchAll(/<input\b[^>]*>/g)]
    .map(([input]) => input)
    .filter((input) => !input.includes('name="_xsrf"'))
    .filter((input) => / checked\b/.test(input) || /type="tel"/.test(input))
    .map((input) => /\bvalue="([^"]*)"/.exec(input)?.[1] ?? '');
}

/** How the call reaches the action: a native form post, or an island's call. */
type Transport = 'form' | 'island';

interface Forgery {
  /** The token the call submits (in the `_xsrf` field, or an island's X-XSRF-TOKEN header). */
  readonly token?: string | undefined;
  readonly headers?: Record<string, string>;
  /** Cookies planted in the victim's browser for the call. */
  readonly plantedCookies?: Record<string, string>;
}

interface Attack {
  readonly name: string;
  /**
   * Whom it is tried on (everyone unless set). A token planted with its copy is refused only where
   * a session signs it: before sign-in every visitor's token is signed alike, so planting one there
   * is the Origin and Sec-Fetch-Site checks' to stop
   * (docs/decisions/025-cross-site-action-calls-refused.md).
   */
  readonly victims?: readonly ActionUnderAttack['victim'][];
  readonly forge: (victim: HttpVisitor, attacker: HttpVisitor) => Forgery;
}

const evilOrigin = 'https://evil.example';

const attacks: Attack[] = [
  { name: 'no token', forge: () => ({ token: undefined }) },
  { name: 'a wrong token', forge: () => ({ token: 'forged.token' }) },
  {
    name: "another session's token",
    forge: (_victim, attacker) => ({ token: attacker.xsrfToken() }),
  },
  {
    name: "another session's token, planted in the victim's cookie too",
    victims: ['member'],
    forge: (_victim, attacker) => ({
      token: attacker.xsrfToken(),
      plantedCookies: { 'XSRF-TOKEN': attacker.xsrfToken() },
    }),
  },
  {
    name: 'a cross-site Origin',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { origin: evilOrigin } }),
  },
  {
    name: 'an opaque (null) Origin',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { origin: 'null' } }),
  },
  {
    name: 'Sec-Fetch-Site: cross-site',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { 'sec-fetch-site': 'cross-site' } }),
  },
  {
    name: 'Sec-Fetch-Site: same-site',
    forge: (victim) => ({ token: victim.xsrfToken(), headers: { 'sec-fetch-site': 'same-site' } }),
  },
];

/** Sends the prepared call of `name` as `transport` with what the forgery chose, in the victim's name. */
function call(
  victim: HttpVisitor,
  name: string,
  prepared: PreparedCall,
  transport: Transport,
  { token, headers = {}, plantedCookies = {} }: Forgery,
): Promise<Response> {
  const common = {
    origin: victim.origin,
    'sec-fetch-site': 'same-origin',
    cookie: victim.cookieHeader(plantedCookies),
  };
  if (transport === 'form') {
    const fields = token === undefined ? prepared.fields : { ...prepared.fields, _xsrf: token };
    return victim.send(`${prepared.page}?_action=${name}`, {
      method: 'POST',
      headers: { ...common, ...headers },
      body: new URLSearchParams(fields),
    });
  }
  const form = new FormData();
  for (const [field, value] of Object.entries(prepared.fields)) form.append(field, value);
  return victim.send(`/_actions/${name}`, {
    method: 'POST',
    headers: { ...common, ...(token === undefined ? {} : { 'x-xsrf-token': token }), ...headers },
    body: form,
  });
}

/** The cookies of a session (or its MFA step) that an answer sets or removes. */
const sessionCookiesSetBy = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((line) => line.split('=', 1)[0] ?? '')
    .filter((name) => /(^|-)(session|mfa_token|mfa_step|onboarding)$/.test(name));

/** The links to the member's requests on their Requests page, open and closed. */
async function requestLinks(member: HttpVisitor): Promise<string[]> {
  const html = await (await member.send('/requests')).text();
  return [...html.matchAll(/href="(\/requests\/(?!category\/)[^"/?]+)"/g)].map(
    ([, link]) => link ?? '',
  );
}

/** Actions whose writes the site shows nowhere: only their forgeries' 403 can be checked. */
const writesNothingVisible = new Set([
  'uploads.createDirectUpload',
  'account.setUpApp',
  // A challenge each, which only the ceremony's next call can tell: the one after it spends it.
  'account.passkeyOptions',
  'mfa.passkeyOptions',
  'auth.passkeyOptions',
]);

test('the list of attacked actions is every action src/actions/index.ts exports', () => {
  const source = readFileSync('src/actions/index.ts', 'utf8');
  const server = /export const server = \{([\s\S]*?)\n\};/.exec(source)?.[1] ?? '';
  const exported = [...server.matchAll(/(\w+): \{([^}]*)\}/g)].flatMap(
    ([, group = '', names = '']) =>
      names
        .split(',')
        // `name` or `name: handler`
        .map((name) => name.split(':')[0]?.trim() ?? '')
        .filter(Boolean)
        .map((name) => `${group}.${name}`),
  );
  expect(exported.length).toBeGreaterThan(0);
  expect(Object.keys(actions).sort()).toEqual(exported.sort());
});

for (const transport of ['form', 'island'] as const) {
  test(`every action called as ${transport === 'form' ? 'a native form post' : "an island's call"} refuses each forgery of a call that would succeed, and changes nothing`, async () => {
    test.slow();
    // A portal of each transport's own: the actions sign in and sign up more than the API allows
    // one address in 10 minutes, twice over.
    await portal.stop();
    await withCompanySignIn?.stop();
    withCompanySignIn = await startPortalWithCompanySignIn({ OUTBOX_VIEWER: 'true' });
    portal = withCompanySignIn.server;
    const origin = portal.baseURL;
    // Seeded accounts: sign-ups per address are limited, and the actions below make some.
    const members = {
      victim: await signedInAs(origin, member),
      attacker: await signedInAs(origin, {
        email: 'secure@example.com',
        password: member.password,
      }),
    };
    const shared: SharedVictims = {};

    for (const [name, action] of Object.entries(actions)) {
      const victims =
        action.victim === 'member'
          ? members
          : { victim: await anonymousVisitor(origin), attacker: await anonymousVisitor(origin) };
      const { victim, attacker } = victims;
      const prepared = await action.prepare(victims, shared);
      const before = await prepared.written();

      for (const attack of attacks) {
        if (attack.victims && !attack.victims.includes(action.victim)) continue;
        const forgery = attack.forge(victim, attacker);
        const response = await call(victim, name, prepared, transport, forgery);
        const what = `${name} with ${attack.name}`;
        expect(response.status, what).toBe(403);
        expect(sessionCookiesSetBy(response), what).toEqual([]);
      }
      // Read once after all of them: some reads are sign-ins, which the API limits per address.
      expect(await prepared.written(), `${name}: nothing written by the forgeries`).toEqual(before);

      // The same payload with the victim's own token, from the site itself, goes through and
      // writes: so the refusals above were the forgery's, not the payload's.
      const genuine = await call(victim, name, prepared, transport, { token: victim.xsrfToken() });
      expect(genuine.status, `${name} with the right token`).toBeLessThan(400);
      if (!writesNothingVisible.has(name)) {
        expect(await prepared.written(), `${name} with the right token writes`).not.toEqual(before);
      }
    }
  });
}

test('a sign-in posted from another site does not sign the visitor in (login CSRF)', async () => {
  const visitor = await anonymousVisitor(portal.baseURL);
  const response = await visitor.postForm(
    '/sign-in?_action=auth.signIn',
    { ...member },
    { origin: evilOrigin, 'sec-fetch-site': 'cross-site' },
  );
  expect(response.status).toBe(403);
  expect(visitor.cookies.has('session')).toBe(false);
  expect((await visitor.send('/dashboard')).headers.get('location')).toBe('/sign-in');
});
