import { Label, ProgressBar } from 'react-aria-components';
import './bulk-job.css';

/**
 * A background job's bar: its name and "12,500 of 100,000" over a track that fills. `done` may
 * pass an estimated `total` (the bar is then full). `labelHidden` leaves the name to screen
 * readers where a column header already says it.
 */
export function JobProgressBar(props: {
  label: string;
  labelHidden?: boolean;
  done: number;
  total: number;
  valueLabel: string;
}) {
  return (
    <ProgressBar
      className="bulk-job-bar"
      value={props.done}
      maxValue={Math.max(props.total, props.done, 1)}
      valueLabel={props.valueLabel}
    >
      {({ percentage }) => (
        <>
          <span className="bulk-job-text">
            <Label className={props.labelHidden ? 'visually-hidden' : undefined}>
              {props.label}
            </Label>
            <span className="bulk-job-value">{props.valueLabel}</span>
          </span>
          <span className="bulk-job-track">
            <span className="bulk-job-fill" style={{ width: `${percentage ?? 0}%` }} />
          </span>
        </>
      )}
    </ProgressBar>
  );
}
