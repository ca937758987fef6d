import { useState } from 'react';
import { Tabs } from '../../../ui/Tabs/Tabs';
import { Text } from '../../../ui/Text/Text';
import styles from './Gallery.module.css';

const MANY_LABELS = [
  'Life insurance',
  'Auto insurance',
  'Home insurance',
  'Home warranty',
  'Renters insurance',
  'Pet insurance',
  'Wills & trusts',
  'Travel',
  'Moving',
  'Legal help',
];

/** Tabs with automatic activation, and a long tab list that scrolls, with manual activation. */
export default function TabsDemo() {
  const [active, setActive] = useState('Open');

  return (
    <div className={styles.stack}>
      <h3 className={styles.subheading}>Request tabs (automatic activation, swipe on the panel)</h3>
      <Tabs
        label="Requests by status"
        onValueChange={setActive}
        tabs={[
          { label: 'Open', content: <Text>Requests we are working on.</Text> },
          { label: 'Waiting on you', content: <Text>Requests that need your answer.</Text> },
          { label: 'Completed', content: <Text>Requests we finished.</Text> },
        ]}
      />
      <output className={styles.output} aria-live="polite">
        Active tab value: {active}
      </output>

      <h3 className={styles.subheading}>Partner tabs (manual activation, scrolling list)</h3>
      <Tabs
        label="Partner offers"
        activation="manual"
        tabs={MANY_LABELS.map((label) => ({
          label,
          content: <Text>Offers for {label.toLowerCase()}.</Text>,
        }))}
      />
    </div>
  );
}
