import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { initI18n } from '../../i18n';
import { SchemaForm } from './schema-form';

const schema = z.object({
  email: z.pipe(z.string().check(z.minLength(1, 'form.required')), z.email('form.invalidEmail')),
  code: z.string().check(z.regex(/^\d{6}$/, 'form.invalidCode')),
});

function renderForm(props: Partial<Parameters<typeof SchemaForm>[0]> = {}) {
  const onSubmit = vi.fn();
  render(
    <SchemaForm
      label="Test form"
      schema={schema}
      defaultValues={{ email: '', code: '' }}
      fields={[
        { name: 'email', label: 'E-mail', type: 'email' },
        { name: 'code', label: 'Code' },
      ]}
      submitLabel="Send"
      pendingLabel="Sending…"
      onSubmit={onSubmit}
      {...props}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

beforeAll(() => {
  initI18n();
});

describe('SchemaForm', () => {
  it('shows no error before a field is touched', () => {
    renderForm();
    expect(screen.getByLabelText('E-mail')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
  });

  it('shows a translated error once the field is left invalid', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText('E-mail'), 'not-an-address');
    await user.tab();
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true');
    // The other field was not touched, so it stays quiet.
    expect(screen.queryByText('The code is 6 digits')).not.toBeInTheDocument();
  });

  it('shows the error of a field that was left without typing', async () => {
    const { user } = renderForm();
    await user.click(screen.getByLabelText('E-mail'));
    await user.tab();
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Required');
  });

  it("shows a field's hint only while it has no error", async () => {
    const { user } = renderForm({
      fields: [
        { name: 'email', label: 'E-mail', type: 'email' },
        { name: 'code', label: 'Code', description: 'Six digits from the e-mail.' },
      ],
    });
    expect(screen.getByLabelText('Code')).toHaveAccessibleDescription(
      'Six digits from the e-mail.',
    );
    await user.type(screen.getByLabelText('Code'), '12');
    await user.tab();
    expect(await screen.findByText('The code is 6 digits')).toBeInTheDocument();
    expect(screen.queryByText('Six digits from the e-mail.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveAccessibleDescription('The code is 6 digits');
  });

  it('ignores presses on the submit button while pending', async () => {
    const { user, onSubmit } = renderForm({
      isPending: true,
      defaultValues: { email: 'a@b.co', code: '123456' },
    });
    await user.click(screen.getByRole('button', { name: /Sending/ }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /Sending/ })).toHaveAttribute('aria-busy', 'true');
  });

  it('blocks a submit with errors, announces it and focuses the first invalid field', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please fix the highlighted fields.',
    );
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(screen.getByText('The code is 6 digits')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
  });

  it('submits valid values and clears the error when fixed', async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.test');
    await user.type(screen.getByLabelText('Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledWith({ email: 'ada@example.test', code: '123456' });
  });

  it('shows a server error and progress instead of swallowing them', () => {
    renderForm({ error: 'The e-mail or password is wrong.' });
    expect(screen.getByRole('alert')).toHaveTextContent('The e-mail or password is wrong.');
  });

  it('shows progress on the submit button while pending', () => {
    renderForm({ isPending: true, error: 'hidden while pending' });
    expect(screen.getByRole('button', { name: /Sending/ })).toBeInTheDocument();
    expect(screen.queryByText('hidden while pending')).not.toBeInTheDocument();
  });
});

describe('SchemaForm after a blocked submit', () => {
  it('submits once the errors are fixed', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.test');
    await user.type(screen.getByLabelText('Code'), '123456');
    expect(screen.queryByText('Please fix the highlighted fields.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledWith({ email: 'ada@example.test', code: '123456' });
  });
});
