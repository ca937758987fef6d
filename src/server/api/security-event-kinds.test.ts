import { describe, expect, it } from 'vitest';
import { SECURITY_EVENT_KINDS as API_KINDS } from '../../../api/db/schema.ts';
import { securityEventSentences } from '../../lib/messages';
import { SECURITY_EVENT_KINDS } from './accounts';

describe('the kinds of security events', () => {
  it('are the reference API’s, each with a sentence of its own on the Activity page', () => {
    expect(SECURITY_EVENT_KINDS).toEqual(API_KINDS);
    const sentences = SECURITY_EVENT_KINDS.map((kind) => securityEventSentences[kind]);
    expect(sentences.every((sentence) => typeof sentence === 'string')).toBe(true);
    expect(new Set(sentences).size).toBe(SECURITY_EVENT_KINDS.length);
  });
});
