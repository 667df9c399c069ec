import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { CheckboxField } from './form-controls';

function Toggle() {
  const [checked, setChecked] = useState(false);
  return (
    <>
      <CheckboxField
        name="isTemplate"
        label="Template"
        checked={checked}
        onChange={setChecked}
        onBlur={() => undefined}
      />
      <output>{String(checked)}</output>
    </>
  );
}

describe('CheckboxField (spec §4 toggle)', () => {
  it('flips its boolean on each click', async () => {
    const user = userEvent.setup();
    render(<Toggle />);
    const box = screen.getByRole('checkbox', { name: 'Template' });
    const seen: string[] = [];
    for (let click = 0; click < 3; click++) {
      await user.click(box);
      seen.push(screen.getByRole('status').textContent);
    }
    expect(seen).toEqual(['true', 'false', 'true']);
  });
});
