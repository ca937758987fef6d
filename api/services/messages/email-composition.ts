import type { EmailContent } from './outbox.ts';

/**
 * How the account's emails are written: a plain-text and an HTML part from the same paragraphs,
 * links built from the site's public origin, never from a request's Host header, so that nobody
 * can make the API mail a link to another site.
 */

/** The product's name as emails and authenticator apps show it. */
export const PRODUCT_NAME = 'Member Concierge';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** `${publicOrigin}${path}`, with the token path-encoded (tokens are base64url, so unchanged). */
export function siteLink(publicOrigin: string, ...segments: string[]): string {
  return `${publicOrigin}/${segments.map(encodeURIComponent).join('/')}`;
}

export interface Paragraphs {
  greeting: string;
  /** Paragraphs before the link. */
  before: string[];
  link?: { href: string; label: string };
  /** Paragraphs after the link. */
  after: string[];
  /** A second link, after the paragraphs that follow the first. */
  closingLink?: { href: string; label: string };
}

export function compose(subject: string, parts: Paragraphs): EmailContent {
  const text = [
    parts.greeting,
    ...parts.before,
    ...(parts.link ? [parts.link.href] : []),
    ...parts.after,
    ...(parts.closingLink ? [parts.closingLink.href] : []),
    `— ${PRODUCT_NAME}`,
  ].join('\n\n');
  const paragraph = (content: string) => `<p>${escapeHtml(content)}</p>`;
  const linkParagraphs = (link: { href: string; label: string }) => [
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="font-size: 0.875em">If the button does not work, copy this address into your browser: ${escapeHtml(link.href)}</p>`,
  ];
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a">',
    paragraph(parts.greeting),
    ...parts.before.map(paragraph),
    ...(parts.link ? linkParagraphs(parts.link) : []),
    ...parts.after.map(paragraph),
    ...(parts.closingLink ? linkParagraphs(parts.closingLink) : []),
    paragraph(`— ${PRODUCT_NAME}`),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/**
 * These emails are about the account's security, so they hold no text a member wrote: a first
 * name such as "there. Your account was suspended - restore it at https://…" would otherwise read
 * as the product's own sentence in a genuine email. Hence no name in the greeting, and no name
 * passed in at all.
 */
export const GREETING = 'Hello,';
