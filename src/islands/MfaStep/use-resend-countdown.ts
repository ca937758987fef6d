import { useEffect, useState } from 'react';

/**
 * Seconds left until another code may be asked for: `seconds` each time a code is sent
 * (`sentAt` changes), counting down once a second. Zero until hydrated, so that without
 * JavaScript the button is never stuck disabled (the API still refuses a resend that is too soon).
 */
export function useResendCountdown(seconds: number, sentAt: unknown): number {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    setLeft(seconds);
    if (seconds <= 0) return undefined;
    const timer = setInterval(() => {
      setLeft((current) => Math.max(0, current - 1));
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [seconds, sentAt]);
  return left;
}
