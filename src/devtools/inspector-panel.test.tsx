import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { InspectorPanel, type InspectorEvent } from './inspector-panel';

const session = { sessionId: 'x:0', machineId: 'session' };
const list = { sessionId: 'x:3', machineId: 'list' };

const events: InspectorEvent[] = [
  {
    seq: 1,
    time: Date.UTC(2025, 0, 1, 10, 0, 0),
    source: null,
    target: session,
    type: 'LOGIN_VERIFIED',
    payload: { email: 'ada@example.com', password: '[redacted]' },
    stateAfter: 'authenticating.verifiedLogin',
  },
  {
    seq: 2,
    time: Date.UTC(2025, 0, 1, 10, 0, 1),
    source: { sessionId: 'x:1', machineId: 'login' },
    target: session,
    type: 'xstate.done.actor.0.session.authenticating.verifiedLogin',
    payload: { output: { token: '[redacted]' } },
    stateAfter: 'idle',
  },
  { seq: 3, time: 0, source: null, target: list, type: 'REFRESH', payload: {}, stateAfter: null },
];

function renderPanel(onClose = vi.fn()) {
  render(
    <>
      <button type="button">Before</button>
      <InspectorPanel
        actors={[
          {
            sessionId: 'x:0',
            id: 'x:0',
            machineId: 'session',
            value: 'idle',
            context: { data: { token: '[redacted]', email: 'ada@example.com' } },
          },
        ]}
        events={events}
        shortcut="Ctrl+Alt+I"
        onClose={onClose}
      />
    </>,
  );
  return onClose;
}

describe('InspectorPanel', () => {
  it('is a labelled landmark that takes the focus', () => {
    renderPanel();
    const panel = screen.getByRole('complementary', { name: 'State machine inspector' });
    expect(panel).toContainElement(document.activeElement as HTMLElement);
  });

  it('lists the live actors with their state, and their context on demand', async () => {
    renderPanel();
    const actors = screen.getByRole('region', { name: 'Live actors (1)' });
    expect(within(actors).getByText('session')).toBeVisible();
    expect(within(actors).getByText('idle')).toBeVisible();
    expect(within(actors).getByText(/ada@example\.com/)).not.toBeVisible();
    await userEvent.click(within(actors).getByText('session'));
    expect(within(actors).getByText(/ada@example\.com/)).toBeVisible();
  });

  it('shows the events newest first and filters them by actor', async () => {
    renderPanel();
    const region = screen.getByRole('region', { name: /^Events/ });
    const rows = () => within(region).getAllByRole('row').slice(1);
    expect(rows().map((row) => within(row).getAllByRole('cell')[3]?.textContent)).toEqual([
      'REFRESH',
      'xstate.done.actor.0.session.authenticating.verifiedLogin',
      'LOGIN_VERIFIED',
    ]);
    expect(within(rows()[1] as HTMLElement).getByText('login (x:1)')).toBeVisible();
    expect(within(rows()[1] as HTMLElement).getByText('idle')).toBeVisible();
    await userEvent.selectOptions(
      within(region).getByRole('combobox', { name: 'Actor' }),
      'list (x:3)',
    );
    expect(rows()).toHaveLength(1);
    expect(within(region).getByRole('heading')).toHaveTextContent('Events (1 of the last 3)');
  });

  it('closes with Escape and with the Close button, giving the focus back', async () => {
    const onClose = vi.fn();
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const { unmount } = render(
      <InspectorPanel actors={[]} events={[]} shortcut="Ctrl+Alt+I" onClose={onClose} />,
    );
    expect(before).not.toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
    unmount();
    expect(before).toHaveFocus();
    before.remove();
  });
});
