import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $user, seedUser } from '../../stores/user';
import styles from '../request-form.module.css';

interface RequestCountProps {
  /** The count the server rendered the page with. */
  readonly requestCount: number;
}

/** "You have 3 requests" in words, for any count. */
export function requestCountSentence(count: number): string {
  if (count === 0) return 'You have not made any requests yet.';
  return `You have ${count} ${count === 1 ? 'request' : 'requests'}.`;
}

/**
 * The member's request count, which goes up the moment a request is made on the page, before the
 * server knows of it: it reads the `$user` store that the new-request form counts in.
 */
export default function RequestCount({ requestCount }: RequestCountProps) {
  const user = useStore($user);
  useEffect(() => {
    seedUser({ requestCount });
  }, [requestCount]);

  return (
    <p className={styles['count']} aria-live="polite">
      {requestCountSentence(user?.requestCount ?? requestCount)}
    </p>
  );
}
