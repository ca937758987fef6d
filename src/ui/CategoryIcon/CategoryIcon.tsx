import { Icon } from '../Icon/Icon';

/**
 * The shapes of the request categories' icons. They live apart from the kit's own icons so that
 * islands, which never draw a category, do not carry them.
 */
const CATEGORY_PATHS = {
  home: 'M12 3 1.5 12.5 2.8 14 4 12.9V21h6v-6h4v6h6v-8.1l1.2 1.1 1.3-1.5L12 3Z',
  travel:
    'M21.5 15.5v-2L13.5 8.5V3.8a1.5 1.5 0 0 0-3 0v4.7l-8 5v2l8-2.5v5.5l-2 1.5v1.5l3.5-1 3.5 1V20l-2-1.5V13l8 2.5Z',
  health: 'M9.5 3h5v6.5H21v5h-6.5V21h-5v-6.5H3v-5h6.5V3Z',
  finance: 'M2 5h20v14H2V5Zm2 2v10h16V7H4Zm8 1.5a3.5 3.5 0 1 1 0 7 3.5 3.5 0 0 1 0-7Z',
  family:
    'M8 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm9 1a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM8 13c-3 0-7 1.5-7 4.5V20h14v-2.5C15 14.5 11 13 8 13Zm9 1c-.6 0-1.2 0-1.8.2 1.1.9 1.8 2 1.8 3.3V20h6v-2.5c0-2.4-3.6-3.5-6-3.5Z',
  errands:
    'M7 7V6a5 5 0 0 1 10 0v1h3l1 15H3L4 7h3Zm2 0h6V6a3 3 0 0 0-6 0v1Zm-2 3v2h2v-2H7Zm8 0v2h2v-2h-2Z',
} as const;

/** The icon names the API gives categories. */
export type CategoryIconName = keyof typeof CATEGORY_PATHS;

/** Props of {@link CategoryIcon}. */
interface CategoryIconProps {
  icon: CategoryIconName;
  className?: string | undefined;
}

/** A category's decorative icon; the category's name must be said in text beside it. */
export function CategoryIcon({ icon, className }: CategoryIconProps) {
  return <Icon path={CATEGORY_PATHS[icon]} className={className} />;
}
