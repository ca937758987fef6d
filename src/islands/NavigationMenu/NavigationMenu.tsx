import { useState, useSyncExternalStore } from 'react';
import { Drawer } from '../../ui/Drawer/Drawer';
import { Icon } from '../../ui/Icon/Icon';
import styles from './NavigationMenu.module.css';

/** The menu button's icon (only this island draws it). */
const MENU_SHAPE = 'M3 6h18v2H3V6Zm0 5h18v2H3v-2Zm0 5h18v2H3v-2Z';

/** One link of the site's navigation. */
export interface NavigationLink {
  readonly href: string;
  readonly label: string;
  /** The page shown is this link's page or one under it. */
  readonly current: boolean;
}

interface NavigationMenuProps {
  readonly links: readonly NavigationLink[];
  /** The id of the same links in plain markup, which the menu leads to until it hydrates. */
  readonly fallbackId: string;
}

const neverChanges = () => () => undefined;

/**
 * The small-screen navigation: a Menu button that opens the links in the kit's nav Drawer
 * (dismissible: Escape, a click outside or its close button). Focus moves into the drawer and
 * back to the button when it closes. Until it hydrates, and without JavaScript, the button is a
 * link to the same links in the page's footer.
 */
export default function NavigationMenu({ links, fallbackId }: NavigationMenuProps) {
  const hydrated = useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
  const [open, setOpen] = useState(false);

  // The menu is the navigation landmark itself; it also keeps the drawer's own header from
  // reading as a second page banner (the menu sits in the page's header).
  if (!hydrated) {
    return (
      <nav aria-label="Main" className={styles.navigation}>
        <a className={styles.menuButton} href={`#${fallbackId}`}>
          <Icon path={MENU_SHAPE} />
          <span className={styles.menuLabel}>Menu</span>
        </a>
      </nav>
    );
  }

  return (
    <nav aria-label="Main" className={styles.navigation}>
      <button
        type="button"
        className={styles.menuButton}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setOpen(true);
        }}
      >
        <Icon path={MENU_SHAPE} />
        <span className={styles.menuLabel}>Menu</span>
      </button>
      <Drawer
        open={open}
        onClose={() => {
          setOpen(false);
        }}
        title="Menu"
        position="left"
        variant="nav"
        dismissible
        closeLabel="Close menu"
      >
        <ul className={styles.links}>
          {links.map((link) => (
            <li key={link.href}>
              <a
                className={styles.link}
                href={link.href}
                aria-current={link.current ? 'page' : undefined}
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </Drawer>
    </nav>
  );
}
