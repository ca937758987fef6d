import type { HTMLAttributes, ReactNode, Ref } from 'react';
import styles from './Heading.module.css';

/** The document outline level of a {@link Heading}. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** The visual size of a {@link Heading}, independent of its level. */
type HeadingSize = 'lg' | 'xl';

/** Props of {@link Heading}. */
interface HeadingProps extends HTMLAttributes<HTMLHeadingElement> {
  level: HeadingLevel;
  /** `xl` for a level 1 heading, `lg` for the others, unless given. */
  size?: HeadingSize | undefined;
  /** For moving focus to the heading (give it `tabIndex={-1}`) when what it names appears. */
  ref?: Ref<HTMLHeadingElement> | undefined;
  children: ReactNode;
}

/** A heading whose level follows the document outline and whose size follows the design. */
export function Heading({ level, size, className, children, ref, ...native }: HeadingProps) {
  const Tag = `h${level}` as const;
  return (
    <Tag
      {...native}
      ref={ref}
      className={[styles.heading, className].filter(Boolean).join(' ')}
      data-size={size ?? (level === 1 ? 'xl' : 'lg')}
    >
      {children}
    </Tag>
  );
}
