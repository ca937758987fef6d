import { useState } from 'react';
import { Button } from '../../../ui/Button/Button';
import { Drawer, type DrawerPosition, type DrawerVariant } from '../../../ui/Drawer/Drawer';
import { Text } from '../../../ui/Text/Text';
import styles from './Gallery.module.css';

interface DrawerExample {
  key: string;
  opener: string;
  title: string;
  position: DrawerPosition;
  variant: DrawerVariant;
  dismissible: boolean;
  fullBleed?: boolean;
}

const EXAMPLES: DrawerExample[] = [
  {
    key: 'dismissible-panel',
    opener: 'Open dismissible panel',
    title: 'Request details',
    position: 'right',
    variant: 'panel',
    dismissible: true,
  },
  {
    key: 'fixed-panel',
    opener: 'Open non-dismissible panel',
    title: 'Confirm your details',
    position: 'right',
    variant: 'panel',
    dismissible: false,
  },
  {
    key: 'nav',
    opener: 'Open navigation',
    title: 'Navigation',
    position: 'left',
    variant: 'nav',
    dismissible: true,
  },
  {
    key: 'top',
    opener: 'Open top drawer',
    title: 'Announcements',
    position: 'top',
    variant: 'panel',
    dismissible: true,
  },
  {
    key: 'bottom',
    opener: 'Open bottom drawer',
    title: 'Filters',
    position: 'bottom',
    variant: 'panel',
    dismissible: true,
    fullBleed: true,
  },
];

/** One drawer per position, dismissible or not, each opened by its own button. */
export default function DrawersDemo() {
  const [openKey, setOpenKey] = useState<string | null>(null);
  const close = () => {
    setOpenKey(null);
  };

  return (
    <div className={styles.row}>
      {EXAMPLES.map((example) => (
        <Button
          key={example.key}
          variant="secondary"
          onClick={() => {
            setOpenKey(example.key);
          }}
        >
          {example.opener}
        </Button>
      ))}
      {EXAMPLES.map((example) => (
        <Drawer
          key={example.key}
          open={openKey === example.key}
          onClose={close}
          title={example.title}
          position={example.position}
          variant={example.variant}
          dismissible={example.dismissible}
          fullBleed={example.fullBleed}
        >
          {example.variant === 'nav' ? (
            <nav aria-label="Kit navigation">
              <ul className={styles.stack}>
                <li>
                  <a href="/dashboard">Dashboard</a>
                </li>
                <li>
                  <a href="/requests">Requests</a>
                </li>
              </ul>
            </nav>
          ) : (
            <div className={styles.stack}>
              <Text>
                {example.dismissible
                  ? 'Press Escape, click outside or use the close button to close this drawer.'
                  : 'Escape and clicks outside do nothing here: finish with the button below.'}
              </Text>
              <div className={styles.row}>
                <Button onClick={close}>Done</Button>
              </div>
            </div>
          )}
        </Drawer>
      ))}
    </div>
  );
}
