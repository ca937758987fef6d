import type { Ref, RefCallback } from 'react';

/** One callback ref that feeds every given ref (object or callback), and cleans each up. */
export function mergeRefs<T>(...refs: (Ref<T> | undefined)[]): RefCallback<T> {
  return (element) => {
    const cleanups = refs.map((ref) => {
      if (typeof ref === 'function') {
        const cleanup = ref(element);
        return typeof cleanup === 'function'
          ? cleanup
          : () => {
              ref(null);
            };
      }
      if (ref) {
        ref.current = element;
        return () => {
          ref.current = null;
        };
      }
      return undefined;
    });
    return () => {
      for (const cleanup of cleanups) cleanup?.();
    };
  };
}
