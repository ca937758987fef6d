import { useEffect, useRef } from 'react';
import { Button } from '../../ui/Button/Button';
import { Heading } from '../../ui/Heading/Heading';
import { useHydrated } from '../use-hydrated';
import styles from './RecoveryCodeList.module.css';

interface RecoveryCodeListProps {
  readonly codes: readonly string[];
  /** Where "I have saved my codes" goes: the page, without the codes. */
  readonly savedHref: string;
}

/** The name the browser saves the codes under. */
const fileName = 'member-concierge-recovery-codes.txt';

/** The saved file: what the codes are for, then one code a line. */
function recoveryCodesFile(codes: readonly string[]): string {
  return [
    'Member Concierge recovery codes',
    'Each code signs you in once, when you cannot use your phone, app or passkey.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * Recovery codes shown once, with a download that needs no JavaScript and, once hydrated, a print
 * button; printing shows the codes alone. Rendered by the page after a post without JavaScript, and
 * by the form that made them after one with it (focus then moves to the heading, so the codes are
 * announced).
 */
export function RecoveryCodeList({ codes, savedHref }: RecoveryCodeListProps) {
  const hydrated = useHydrated();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  return (
    <section
      className={styles['codes']}
      aria-labelledby="new-recovery-codes-heading"
      data-print-only=""
    >
      <Heading level={3} id="new-recovery-codes-heading" tabIndex={-1} ref={heading}>
        Your recovery codes
      </Heading>
      <p>
        Save these codes somewhere safe, away from your phone. When you cannot use your phone or
        app, each code signs you in once. This is the only time we show them.
      </p>
      <ol className={styles['list']}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className={styles['actions']} data-print-hide="">
        <a
          download={fileName}
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesFile(codes))}`}
        >
          Download the codes
        </a>
        {hydrated && (
          <Button
            variant="secondary"
            onClick={() => {
              window.print();
            }}
          >
            Print the codes
          </Button>
        )}
        <a href={savedHref}>I have saved my codes</a>
      </p>
    </section>
  );
}
