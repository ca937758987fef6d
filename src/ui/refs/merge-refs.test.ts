import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { mergeRefs } from './merge-refs';

describe('mergeRefs', () => {
  it('hands the element to object refs and callback refs alike', () => {
    const objectRef = createRef<string>();
    const callbackRef = vi.fn();
    mergeRefs(objectRef, callbackRef, undefined)('element');
    expect(objectRef.current).toBe('element');
    expect(callbackRef).toHaveBeenCalledWith('element');
  });

  it('clears every ref when cleaned up', () => {
    const objectRef = createRef<string>();
    const callbackRef = vi.fn();
    const cleanup = mergeRefs(objectRef, callbackRef)('element');
    if (typeof cleanup === 'function') cleanup();
    expect(objectRef.current).toBeNull();
    expect(callbackRef).toHaveBeenLastCalledWith(null);
  });

  it('runs the cleanup a callback ref returns instead of calling it with null', () => {
    const cleanupOfCallback = vi.fn();
    const callbackRef = vi.fn(() => cleanupOfCallback);
    const cleanup = mergeRefs(callbackRef)('element');
    if (typeof cleanup === 'function') cleanup();
    expect(cleanupOfCallback).toHaveBeenCalledTimes(1);
    expect(callbackRef).toHaveBeenCalledTimes(1);
  });
});
