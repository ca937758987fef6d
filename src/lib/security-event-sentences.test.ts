import { describe, expect, it } from 'vitest';
import { SECURITY_EVENT_KINDS } from '../../contract/security-event-kinds.ts';
import { securityEventSentences } from './messages';

describe('the sentences of security events', () => {
  it('give each kind the API records a sentence of its own on the Activity page', () => {
    const sentences = SECURITY_EVENT_KINDS.map((kind) => securityEventSentences[kind]);
    expect(sentences.every((sentence) => typeof sentence === 'string')).toBe(true);
    expect(new Set(sentences).size).toBe(SECURITY_EVENT_KINDS.length);
  });
});
