import { useEffect, useState } from 'react';
import { seedUser } from '../../stores/user';
import { Button } from '../../ui/Button/Button';
import buttonStyles from '../../ui/Button/Button.module.css';
import { Drawer } from '../../ui/Drawer/Drawer';
import { useHydrated } from '../use-hydrated';
import { NewRequestForm, type CategoryChoice } from './NewRequestForm';

interface NewRequestProps {
  readonly categories: readonly CategoryChoice[];
  readonly presetCategoryId?: string | undefined;
  readonly xsrfToken: string;
  /** The member's request count as the server rendered the page. */
  readonly requestCount: number;
}

/** Where the form posted without JavaScript lives on the page (NewRequestPanel.astro). */
export const newRequestSectionId = 'new-request';

/**
 * The "New request" button and its drawer (a dismissible panel on the right) holding the form.
 * Until it hydrates (and with JavaScript off) the button is a link to the page's own form
 * section, which only browsers without JavaScript show; the same address opens the drawer.
 */
export default function NewRequest({
  categories,
  presetCategoryId,
  xsrfToken,
  requestCount,
}: NewRequestProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  // Mounted on first opening and kept: closing the drawer keeps what was typed and chosen.
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    seedUser({ requestCount });
  }, [requestCount]);

  // Links elsewhere ("Make a new request") and a press before hydration lead to the section's
  // address: with JavaScript, that opens the drawer.
  useEffect(() => {
    const openFromAddress = () => {
      if (window.location.hash !== `#${newRequestSectionId}`) return;
      setOpened(true);
      setOpen(true);
    };
    openFromAddress();
    window.addEventListener('hashchange', openFromAddress);
    return () => {
      window.removeEventListener('hashchange', openFromAddress);
    };
  }, []);

  const close = () => {
    setOpen(false);
    if (window.location.hash === `#${newRequestSectionId}`) {
      window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
    }
  };

  if (!hydrated) {
    return (
      <a className={buttonStyles['button']} data-variant="primary" href={`#${newRequestSectionId}`}>
        New request
      </a>
    );
  }

  return (
    <>
      <Button
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        New request
      </Button>
      <Drawer
        open={open}
        onClose={close}
        title="New request"
        position="right"
        variant="panel"
        dismissible
      >
        {opened && (
          <NewRequestForm
            categories={categories}
            presetCategoryId={presetCategoryId}
            xsrfToken={xsrfToken}
          />
        )}
      </Drawer>
    </>
  );
}
