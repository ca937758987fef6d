import { useState } from 'react';
import { Button } from '../../../ui/Button/Button';
import styles from './Gallery.module.css';

/** Buttons in every variant, size and state, and one that stays busy after a press until told to stop. */
export default function ButtonsDemo() {
  const [busy, setBusy] = useState(false);
  const [presses, setPresses] = useState(0);

  return (
    <div className={styles.stack}>
      <div className={styles.row}>
        <Button>Primary</Button>
        <Button variant="secondary">Secondary</Button>
        <Button variant="tertiary">Tertiary</Button>
      </div>
      <div className={styles.row}>
        <Button data-size="compact">Primary compact</Button>
        <Button variant="secondary" data-size="compact">
          Secondary compact
        </Button>
      </div>
      <div className={styles.row}>
        <Button disabled>Primary disabled</Button>
        <Button variant="secondary" disabled>
          Secondary disabled
        </Button>
        <Button variant="tertiary" disabled>
          Tertiary disabled
        </Button>
      </div>
      <div className={styles.row}>
        <Button loading>Primary loading</Button>
        <Button variant="secondary" loading>
          Secondary loading
        </Button>
        <Button variant="tertiary" loading>
          Tertiary loading
        </Button>
      </div>
      <div className={styles.row}>
        <Button
          loading={busy}
          onClick={() => {
            setPresses((count) => count + 1);
            setBusy(true);
          }}
        >
          Save changes
        </Button>
        <Button
          variant="tertiary"
          disabled={!busy}
          onClick={() => {
            setBusy(false);
          }}
        >
          Finish saving
        </Button>
        <output className={styles.output} aria-live="polite">
          Pressed {presses} {presses === 1 ? 'time' : 'times'}
        </output>
      </div>
    </div>
  );
}
