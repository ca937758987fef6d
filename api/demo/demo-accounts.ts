import { INTERNAL_COMPANY_NAMES } from '../../platform/internal-companies.ts';

/**
 * The demo accounts, as data alone: seed.ts makes them, and the servers print them at start without
 * loading what seeding needs.
 */

/** A ready-made account, printed at start-up so that people can sign in to a fresh install. */
export interface DemoAccount {
  email: string;
  password: string;
  description: string;
}

export const DEFAULT_DEMO_PASSWORD = 'portal-demo-2026';

interface DemoUser {
  email: string;
  name: string;
  lastName: string;
  companyName: string;
  /** The phone enrolled for two-step verification (E.164), or null. */
  mfaPhone: string | null;
  /**
   * Created as having said "not now" to the phone offer, so that it signs in straight to the
   * Dashboard for 30 days; new sign-ups show the offer.
   */
  offerDeclined: boolean;
  description: string;
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    email: 'member@example.com',
    name: 'Avery',
    lastName: 'Jordan',
    companyName: 'Acme Health',
    mfaPhone: null,
    offerDeclined: true,
    description: 'Member of Acme Health',
  },
  {
    email: 'verified@example.com',
    name: 'Morgan',
    lastName: 'Ellis',
    companyName: 'Acme Health',
    mfaPhone: '+15555550123',
    offerDeclined: false,
    description: 'Member with a phone for two-step verification',
  },
  {
    email: 'secure@example.com',
    name: 'Casey',
    lastName: 'Nguyen',
    companyName: 'Northwind Secure',
    mfaPhone: null,
    offerDeclined: false,
    description: 'Member of Northwind Secure, which requires two-step verification',
  },
  {
    email: 'concierge@example.com',
    name: 'Jordan',
    lastName: 'Lee',
    companyName: INTERNAL_COMPANY_NAMES[0],
    mfaPhone: null,
    offerDeclined: true,
    description: `Internal staff (${INTERNAL_COMPANY_NAMES[0]})`,
  },
  {
    email: 'operations@example.com',
    name: 'Sam',
    lastName: 'Rivera',
    companyName: INTERNAL_COMPANY_NAMES[1],
    mfaPhone: null,
    offerDeclined: true,
    description: `Internal staff (${INTERNAL_COMPANY_NAMES[1]})`,
  },
];

/**
 * The demo company whose people sign in through a development identity provider of its own
 * (`npm start`, `npm run dev`): its employee exists only at that provider until their first
 * company sign-in creates them here.
 */
export const DEMO_COMPANY_SIGN_IN = {
  companyName: 'Globex',
  companySlug: 'globex',
  domain: 'globex.example',
  employee: {
    email: 'employee@globex.example',
    subject: 'globex-employee-1',
    givenName: 'Robin',
    familyName: 'Park',
  },
} as const;

export function demoPassword(): string {
  return process.env['DEMO_PASSWORD'] ?? DEFAULT_DEMO_PASSWORD;
}

/** The demo accounts as printed: every one with the same password. */
export function demoAccounts(password: string = demoPassword()): DemoAccount[] {
  return DEMO_USERS.map(({ email, description }) => ({ email, password, description }));
}

/**
 * The demo company's employee as printed beside the demo accounts when its provider runs: the
 * password is the one the provider asks for.
 */
export function demoEmployeeAccount(password: string = demoPassword()): DemoAccount {
  const { companyName, employee } = DEMO_COMPANY_SIGN_IN;
  return {
    email: employee.email,
    password,
    description: `Employee of ${companyName}, signed in by ${companyName}'s own provider`,
  };
}

/** The lines a server prints at start so that people can sign in to a fresh install. */
export function demoAccountsText(accounts: readonly DemoAccount[]): string {
  const rows = accounts.map(
    (account) =>
      `  ${account.email.padEnd(28)} ${account.password.padEnd(20)} ${account.description}`,
  );
  return ['Demo accounts (email, password):', ...rows].join('\n');
}

const shownKey = Symbol.for('member-portal.demo-accounts-shown');

/**
 * Records that this process printed the demo accounts as it started (`npm run dev`, before its
 * embedded API opened the database), so that the API printing them again when it opens is skipped.
 */
export function markDemoAccountsShown(): void {
  (globalThis as Record<symbol, unknown>)[shownKey] = true;
}

export function demoAccountsShownAtStart(): boolean {
  return (globalThis as Record<symbol, unknown>)[shownKey] === true;
}
