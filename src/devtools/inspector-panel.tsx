/**
 * The in-app state machine inspector (development builds only, so its texts are not
 * translated): the live actors with their state and context, and the last events with time,
 * source and payload, filterable by actor. Everything it shows arrives sanitised, as props.
 */
import { useEffect, useId, useRef, useState } from 'react';
import './inspector-panel.css';

interface InspectorActor {
  sessionId: string;
  id: string;
  machineId: string;
  value: string | null;
  context: unknown;
}

export interface InspectorActorLabel {
  sessionId: string;
  machineId: string;
}

export interface InspectorEvent {
  seq: number;
  time: number;
  source: InspectorActorLabel | null;
  target: InspectorActorLabel;
  type: string;
  payload: unknown;
  stateAfter: string | null;
}

export interface InspectorPanelProps {
  actors: readonly InspectorActor[];
  /** Oldest first. */
  events: readonly InspectorEvent[];
  /** The shortcut that toggles the panel, as shown to the user. */
  shortcut: string;
  onClose: () => void;
}

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? 'undefined';

const time = (ms: number) => {
  const date = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
};

const labelOf = (actor: InspectorActorLabel) => `${actor.machineId} (${actor.sessionId})`;

const isEmpty = (payload: unknown) =>
  payload === undefined ||
  (typeof payload === 'object' && payload !== null && Object.keys(payload).length === 0);

/** A complementary landmark docked to the bottom of the window; Escape closes it. */
export function InspectorPanel({ actors, events, shortcut, onClose }: InspectorPanelProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [filter, setFilter] = useState('');

  // Focus moves into the panel when it opens and back where it was when it closes.
  useEffect(() => {
    const previous = document.activeElement;
    heading.current?.focus();
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);

  // Actors that stopped still label their events, so the filter offers them too.
  const choices = new Map<string, string>();
  for (const actor of actors) choices.set(actor.sessionId, labelOf(actor));
  for (const event of events) {
    for (const side of [event.source, event.target]) {
      if (side && !choices.has(side.sessionId)) choices.set(side.sessionId, labelOf(side));
    }
  }
  const shown = events
    .filter(
      (event) => !filter || event.target.sessionId === filter || event.source?.sessionId === filter,
    )
    .toReversed();

  return (
    <aside
      className="inspector-panel"
      aria-labelledby={headingId}
      data-inspector-panel=""
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <header className="inspector-header">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          State machine inspector
        </h2>
        <span className="inspector-hint">
          {shortcut} or Escape closes it. Secrets show as [redacted].
        </span>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </header>
      <div className="inspector-body">
        <section aria-labelledby={`${headingId}-actors`} className="inspector-actors">
          <h3 id={`${headingId}-actors`}>Live actors ({actors.length})</h3>
          <ul>
            {actors.map((actor) => (
              <li key={actor.sessionId} data-actor={actor.machineId}>
                <details>
                  <summary>
                    <strong>{actor.machineId}</strong> <code>{actor.id}</code>{' '}
                    <span className="inspector-state">{actor.value ?? 'running'}</span>
                  </summary>
                  <pre>{json(actor.context)}</pre>
                </details>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby={`${headingId}-events`} className="inspector-events">
          <h3 id={`${headingId}-events`}>
            Events ({shown.length} of the last {events.length})
          </h3>
          <label>
            Actor{' '}
            <select value={filter} onChange={(event) => setFilter(event.target.value)}>
              <option value="">All actors</option>
              {[...choices].map(([sessionId, label]) => (
                <option key={sessionId} value={sessionId}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Source</th>
                <th scope="col">Target</th>
                <th scope="col">Event</th>
                <th scope="col">State after</th>
                <th scope="col">Payload</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((event) => (
                <tr key={event.seq}>
                  <td>{time(event.time)}</td>
                  <td>{event.source ? labelOf(event.source) : 'outside'}</td>
                  <td>{labelOf(event.target)}</td>
                  <td>
                    <code>{event.type}</code>
                  </td>
                  <td>{event.stateAfter ?? '—'}</td>
                  <td>
                    {isEmpty(event.payload) ? (
                      '—'
                    ) : (
                      <details>
                        <summary>payload</summary>
                        <pre>{json(event.payload)}</pre>
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </aside>
  );
}
