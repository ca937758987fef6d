/**
 * The database's tables, one file per area; drizzle-kit reads the schema from here
 * (drizzle.config.ts), and the code imports it from here.
 */
export * from './accounts.ts';
export * from './factors.ts';
export * from './messages.ts';
export * from './requests.ts';
export * from './files.ts';
export * from './company-sign-in.ts';
