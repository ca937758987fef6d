import styles from './ProgressBar.module.css';
import { toPercent } from './progress-value';

/** Props of {@link ProgressBar}. */
interface ProgressBarProps {
  /** What is progressing; the bar's accessible name. */
  label: string;
  /** 0 to 100, rounded to a whole percent. Leave it out for an indeterminate bar. */
  value?: number | undefined;
  /** Shows the percentage as text beside the bar (determinate bars only). */
  showValue?: boolean | undefined;
  className?: string | undefined;
}

/**
 * A progress bar from 0 to 100 percent, determinate or indeterminate. A native `<progress>`, so
 * assistive technology reads its value without ARIA, and no inline style is needed (the page's CSP
 * forbids style attributes).
 */
export function ProgressBar({ label, value, showValue = false, className }: ProgressBarProps) {
  const percent = value === undefined ? undefined : toPercent(value);
  return (
    <div
      className={[styles.wrapper, className].filter(Boolean).join(' ')}
      data-state={percent === undefined ? 'indeterminate' : 'determinate'}
    >
      <progress className={styles.bar} max={100} value={percent} aria-label={label}>
        {percent === undefined ? null : `${percent}%`}
      </progress>
      {showValue && percent !== undefined ? (
        <span className={styles.figure} aria-hidden="true">
          {percent}%
        </span>
      ) : null}
    </div>
  );
}
