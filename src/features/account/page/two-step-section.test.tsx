import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Passkey } from '../../../../contract/passkey-schemas';
import { myProofQuery } from '../../../api/account';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, serveApi, signedInSession } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { TwoStepSection } from './two-step-section';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
beforeEach(() => queryClient.clear());

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = [...'abcdefghij'].map((letter) => `${letter}bcde-fgh23`);
const NEW_CODES = [...'abcdefghij'].map((letter) => `${letter}wxyz-fgh45`);

function serve(
  status: { enabled: boolean; required: boolean },
  proof: 'password' | 'code' = 'password',
  passkeys: Passkey[] = [],
) {
  let current = {
    ...status,
    enabledAt: status.enabled ? '2030-01-01T00:00:00.000Z' : null,
    recoveryCodesLeft: status.enabled ? 10 : 0,
  };
  const server = serveApi({
    'GET v1/users/me/second-factor': () => jsonResponse(200, { data: current }),
    'GET v1/users/me/proof': [200, { data: { method: proof, email: 'a@b.c' } }],
    'GET v1/users/me/passkeys': [200, { data: passkeys }],
    'POST v1/users/me/proof-code': [200, { data: { sent: true } }],
    'POST v1/users/me/second-factor/totp': [
      200,
      {
        data: {
          secret: SECRET,
          uri: `otpauth://totp/Avatar%20Studio:a%40b.c?issuer=Avatar%20Studio&secret=${SECRET}`,
        },
      },
    ],
    'POST v1/users/me/second-factor/totp/confirm': ({ body }) => {
      if ((body as { code: string }).code !== '123456') {
        return jsonResponse(400, {
          status: 400,
          code: 'INVALID_CODE',
          message: 'code: This is not the code your authenticator shows now',
        });
      }
      current = {
        ...current,
        enabled: true,
        enabledAt: '2030-01-01T00:00:00.000Z',
        recoveryCodesLeft: 10,
      };
      return jsonResponse(200, { data: { recoveryCodes: CODES } });
    },
    'POST v1/auth/refresh': [401, { status: 401, code: 'X', message: 'not in this test' }],
    'POST v1/users/me/second-factor/recovery-codes': ({ body }) => {
      if ((body as { password?: string }).password !== 'my password') {
        return jsonResponse(403, {
          status: 403,
          code: 'WRONG_PASSWORD',
          message: 'password: This is not your current password',
        });
      }
      current = { ...current, recoveryCodesLeft: 10 };
      return jsonResponse(200, { data: { recoveryCodes: NEW_CODES } });
    },
    'DELETE v1/users/me/second-factor': () => {
      current = { ...current, enabled: false, enabledAt: null, recoveryCodesLeft: 0 };
      return jsonResponse(200, { data: { removed: true } });
    },
  });
  configureSession(signedInSession());
  return server;
}

/** The section once the account page's loader read how changes are confirmed. */
async function renderSection() {
  await queryClient.prefetchQuery(myProofQuery());
  render(
    <QueryClientProvider client={queryClient}>
      <TwoStepSection />
    </QueryClientProvider>,
  );
}

describe('the two-step sign-in section', () => {
  it('sets up an authenticator: QR code and key, a first code, the recovery codes once', async () => {
    const server = serve({ enabled: false, required: true });
    const user = userEvent.setup();
    await renderSection();
    // An admin who must have it is told why.
    expect(await screen.findByText(/Your role needs two-step sign-in/)).toBeTruthy();
    const setUp = screen.getByRole('form', { name: 'Set up two-step sign-in' });
    await user.type(within(setUp).getByLabelText('Current password'), 'my password');
    await user.click(within(setUp).getByRole('button', { name: 'Set up' }));

    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeTruthy();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const confirm = screen.getByRole('form', { name: 'Confirm two-step sign-in' });
    const field = within(confirm).getByLabelText('Code from the app');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    await user.type(field, '654321');
    await user.click(within(confirm).getByRole('button', { name: 'Turn on' }));
    expect((await within(confirm).findByRole('alert')).textContent).toMatch(/not the code/);

    await user.clear(field);
    await user.type(field, '123456');
    await user.click(within(confirm).getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(server.sent()).toContain(
      'POST v1/users/me/second-factor/totp {"password":"my password"}',
    );

    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    // Shown once: gone for good, the section says it is on.
    expect(await screen.findByText(/10 recovery codes left/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('does not ask a role that needs a factor for one when a passkey is that factor', async () => {
    const laptop = {
      id: 'pk1',
      name: 'Laptop',
      createdAt: '2030-01-01T00:00:00.000Z',
      lastUsedAt: null,
      backedUp: false,
    };
    serve({ enabled: false, required: true }, 'password', [laptop]);
    await renderSection();
    expect(await screen.findByRole('form', { name: 'Set up two-step sign-in' })).toBeTruthy();
    await vi.waitFor(() =>
      expect(screen.queryByText(/Your role needs two-step sign-in/)).toBeNull(),
    );
  });

  it('starts setting up an account without a password with a code mailed to it', async () => {
    const server = serve({ enabled: false, required: false }, 'code');
    const user = userEvent.setup();
    await renderSection();
    const setUp = await screen.findByRole('form', { name: 'Set up two-step sign-in' });
    expect(within(setUp).queryByLabelText('Current password')).toBeNull();
    await user.click(within(setUp).getByRole('button', { name: 'Send a code to a@b.c' }));
    await within(setUp).findByText('Code sent to a@b.c. It works for 10 minutes.');
    await user.type(within(setUp).getByLabelText('Confirmation code'), '246810');
    await user.click(within(setUp).getByRole('button', { name: 'Set up' }));
    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeTruthy();
    expect(server.sent()).toContain('POST v1/users/me/second-factor/totp {"code":"246810"}');
  });

  it('makes new recovery codes, confirmed with the password, and shows them once', async () => {
    const server = serve({ enabled: true, required: false });
    const user = userEvent.setup();
    await renderSection();
    await user.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    const form = screen.getByRole('form', { name: 'Make new recovery codes' });
    expect(screen.getByText(/the ones you have now stop working/)).toBeTruthy();
    await user.type(within(form).getByLabelText('Current password'), 'not my password');
    await user.click(within(form).getByRole('button', { name: 'Make new codes' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/not your current/);

    const field = within(form).getByLabelText('Current password');
    await user.clear(field);
    await user.type(field, 'my password');
    await user.click(within(form).getByRole('button', { name: 'Make new codes' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(NEW_CODES);
    expect(server.sent()).toContain(
      'POST v1/users/me/second-factor/recovery-codes {"password":"my password"}',
    );
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText(/10 recovery codes left/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('goes back from new recovery codes without making any', async () => {
    const server = serve({ enabled: true, required: false });
    const user = userEvent.setup();
    await renderSection();
    await user.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('form', { name: 'Turn two-step sign-in off' })).toBeTruthy();
    expect(server.sent().filter((line) => line.includes('recovery-codes'))).toEqual([]);
  });

  it('turns it off with a current code', async () => {
    const server = serve({ enabled: true, required: false });
    const user = userEvent.setup();
    await renderSection();
    const form = await screen.findByRole('form', { name: 'Turn two-step sign-in off' });
    await user.type(within(form).getByLabelText('Or a code from the app'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeTruthy();
    expect(server.sent()).toContain('DELETE v1/users/me/second-factor {"code":"123456"}');
  });
});
