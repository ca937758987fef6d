import { useState } from 'react';
import { Button } from '../../../ui/Button/Button';
import { Message } from '../../../ui/Message/Message';
import styles from './Gallery.module.css';

/** Messages of each severity, a closable one, and one that hides itself after three seconds. */
export default function MessagesDemo() {
  const [shortLived, setShortLived] = useState(0);
  const [closed, setClosed] = useState('');

  return (
    <div className={styles.stack}>
      <Message>Your request was received. We will reply within two working days.</Message>
      <Message severity="success">Your details were saved.</Message>
      <Message severity="warning">Your session ends in five minutes.</Message>
      <Message severity="error">We could not load your requests.</Message>
      <Message
        severity="info"
        closable
        onClose={() => {
          setClosed('The closable message was closed');
        }}
      >
        You can close this message.
      </Message>
      <output className={styles.output} aria-live="polite">
        {closed}
      </output>
      <div className={styles.row}>
        <Button
          variant="secondary"
          onClick={() => {
            setShortLived((count) => count + 1);
          }}
        >
          Show a message for 3 seconds
        </Button>
      </div>
      {shortLived > 0 ? (
        <Message key={shortLived} severity="success" lifetime={3000}>
          This message hides itself after 3 seconds.
        </Message>
      ) : null}
    </div>
  );
}
