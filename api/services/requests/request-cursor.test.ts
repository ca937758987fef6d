import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './request-cursor.ts';

const position = {
  updatedAt: '2026-11-26T18:03:11.123456Z',
  createdAt: '2026-11-20T09:00:00Z',
  id: '5b1f3e2a-8c4d-4e6f-9a0b-1c2d3e4f5a6b',
};
const encode = (parts: unknown) => Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');

describe('request cursors', () => {
  it('give back the exact position they were made from, microseconds included', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    ['not base64url JSON', 'not a cursor!'],
    ['JSON of another shape', encode({ updatedAt: position.updatedAt })],
    ['two parts', encode([position.updatedAt, position.id])],
    ['a date without its zone', encode(['2026-11-26T18:03:11', position.createdAt, position.id])],
    ['no date at all', encode(['2026-13-45T99:99:99Z', position.createdAt, position.id])],
    ['an id that is no UUID', encode([position.updatedAt, position.createdAt, "1' or '1'='1"])],
    ['too long', 'a'.repeat(201)],
  ])('are refused when they are %s', (_case, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});
