import type { HTMLAttributes, ReactNode } from 'react';
import styles from './Text.module.css';

/** The sizes of body text. */
type TextSize = 'sm' | 'md' | 'lg';

/** Props of {@link Text}. */
interface TextProps extends HTMLAttributes<HTMLElement> {
  /** `md` by default. */
  size?: TextSize | undefined;
  bold?: boolean | undefined;
  italic?: boolean | undefined;
  /** The element to render; a paragraph by default. */
  as?: 'p' | 'span' | 'div' | undefined;
  children: ReactNode;
}

/** Body text in one of the three sizes, optionally bold or italic. */
export function Text({
  size = 'md',
  bold = false,
  italic = false,
  as: Tag = 'p',
  className,
  children,
  ...native
}: TextProps) {
  return (
    <Tag
      {...native}
      className={[styles.text, className].filter(Boolean).join(' ')}
      data-size={size}
      data-bold={bold ? '' : undefined}
      data-italic={italic ? '' : undefined}
    >
      {children}
    </Tag>
  );
}
