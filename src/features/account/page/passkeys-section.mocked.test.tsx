// @vitest-environment jsdom
/**
 * The account page's passkeys: the list, adding one (fresh proof, the browser's prompt, a name),
 * renaming and removing one, and the prompt's failures in words. The browser's side
 * (@simplewebauthn/browser) is replaced: jsdom has no WebAuthn.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Passkey } from '../../../../contract/passkey-schemas';
import { myProofQuery } from '../../../api/account';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, serveApi, signedInSession } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { PasskeysSection } from './passkeys-section';

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
beforeEach(() => {
  queryClient.clear();
  browser.startRegistration.mockReset();
  browser.browserSupportsWebAuthn.mockReturnValue(true);
});
afterEach(() => vi.restoreAllMocks());

const LAPTOP: Passkey = {
  id: 'pk1',
  name: 'Work laptop',
  createdAt: '2030-01-02T10:00:00.000Z',
  lastUsedAt: null,
  backedUp: false,
};
const PHONE: Passkey = {
  id: 'pk2',
  name: 'Phone',
  createdAt: '2030-01-03T10:00:00.000Z',
  lastUsedAt: '2030-01-04T10:00:00.000Z',
  backedUp: true,
};
const OPTIONS = { challenge: 'abc', rp: { id: 'localhost', name: 'Avatar Studio' } };
const CREDENTIAL = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };
const WRONG_PASSWORD = {
  status: 403,
  code: 'WRONG_PASSWORD',
  message: 'password: This is not your current password',
};

/** The API of an account with a password holding `held`, which it keeps up to date. */
function serve(held: Passkey[] = [LAPTOP], { saveAnswer }: { saveAnswer?: Response } = {}) {
  let passkeys = [...held];
  const server = serveApi({
    'GET v1/users/me/passkeys': () => jsonResponse(200, { data: passkeys }),
    'GET v1/users/me/proof': [200, { data: { method: 'password', email: 'a@b.c' } }],
    'POST v1/users/me/passkeys/options': ({ body }) =>
      (body as { password?: string }).password === 'my password'
        ? jsonResponse(200, { data: { ceremony: 'signed-ceremony', options: OPTIONS } })
        : jsonResponse(403, WRONG_PASSWORD),
    'POST v1/users/me/passkeys': ({ body }) => {
      if (saveAnswer) return saveAnswer;
      const added = { ...LAPTOP, id: 'pk9', name: (body as { name: string }).name };
      passkeys = [...passkeys, added];
      return jsonResponse(200, { data: added });
    },
    'PATCH v1/users/me/passkeys/pk1': ({ body }) => {
      passkeys = passkeys.map((p) => (p.id === 'pk1' ? { ...p, ...(body as object) } : p));
      return jsonResponse(200, { data: passkeys.find((p) => p.id === 'pk1') });
    },
    'DELETE v1/users/me/passkeys/pk1': ({ body }) => {
      if ((body as { password?: string }).password !== 'my password') {
        return jsonResponse(403, WRONG_PASSWORD);
      }
      passkeys = passkeys.filter((p) => p.id !== 'pk1');
      return jsonResponse(200, { data: passkeys });
    },
    'POST v1/auth/refresh': [401, { status: 401, code: 'X', message: 'not in this test' }],
  });
  configureSession(signedInSession());
  return server;
}

/** The section once the account page's loader read how changes are confirmed. */
async function renderSection() {
  await queryClient.prefetchQuery(myProofQuery());
  render(
    <QueryClientProvider client={queryClient}>
      <PasskeysSection />
    </QueryClientProvider>,
  );
}

/** The browser's error for a prompt that ended without an answer. */
const domError = (name: string) => Object.assign(new Error(`${name} from the browser`), { name });

async function startAdding(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
  const form = screen.getByRole('form', { name: 'Add a passkey' });
  await user.type(within(form).getByLabelText('Current password'), 'my password');
  await user.click(within(form).getByRole('button', { name: 'Continue' }));
  return form;
}

describe('the passkeys section', () => {
  it('lists each passkey by name, when it was added and last used, and whether it is synced', async () => {
    serve([LAPTOP, PHONE]);
    await renderSection();
    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    const [laptop, phone] = within(list).getAllByRole('listitem');
    expect(laptop!.textContent).toMatch(/Work laptop.*Added.*Never used/);
    expect(within(laptop!).queryByText('Synced')).toBeNull();
    expect(phone!.textContent).toMatch(/Phone.*Synced.*Added.*Last used/);
    expect(within(phone!).getByRole('button', { name: 'Rename the passkey Phone' })).toBeTruthy();
    expect(within(phone!).getByRole('button', { name: 'Remove the passkey Phone' })).toBeTruthy();
  });

  it('adds one: the password, the browser prompt, then a name made from the browser', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
    );
    browser.startRegistration.mockResolvedValue(CREDENTIAL);
    const server = serve([]);
    const user = userEvent.setup();
    await renderSection();
    expect(await screen.findByText('You have no passkeys yet.')).toBeTruthy();
    await startAdding(user);

    const name = within(
      await screen.findByRole('form', { name: 'Name the passkey' }),
    ).getByLabelText('Name');
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect((name as HTMLInputElement).value).toBe('Chrome on Linux');
    await user.clear(name);
    await user.type(name, 'Desk computer');
    await user.click(screen.getByRole('button', { name: 'Save passkey' }));

    const list = await screen.findByRole('list', { name: 'Your passkeys' });
    expect(await within(list).findByText('Desk computer')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeTruthy();
    expect(server.sent()).toEqual(
      expect.arrayContaining([
        'POST v1/users/me/passkeys/options {"password":"my password"}',
        `POST v1/users/me/passkeys {"ceremony":"signed-ceremony","response":${JSON.stringify(CREDENTIAL)},"name":"Desk computer"}`,
      ]),
    );
  });

  it('says calmly that nothing happened when the prompt was closed or timed out', async () => {
    browser.startRegistration.mockRejectedValue(domError('NotAllowedError'));
    const server = serve();
    const user = userEvent.setup();
    await renderSection();
    const form = await startAdding(user);
    expect((await within(form).findByRole('alert')).textContent).toMatch(
      'No passkey was used: the prompt was closed or timed out.',
    );
    // Still asking: the next try goes through the same form.
    expect(within(form).getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(server.sent().filter((line) => line.startsWith('POST v1/users/me/passkeys '))).toEqual(
      [],
    );
  });

  it('says when this device already holds a passkey of the account, from the browser or the server', async () => {
    browser.startRegistration.mockRejectedValueOnce(domError('InvalidStateError'));
    const exists = { status: 409, code: 'PASSKEY_EXISTS', message: 'registered already' };
    serve([LAPTOP], { saveAnswer: jsonResponse(409, exists) });
    const user = userEvent.setup();
    await renderSection();
    const form = await startAdding(user);
    const said = /already holds a passkey for your account/;
    expect((await within(form).findByRole('alert')).textContent).toMatch(said);

    browser.startRegistration.mockResolvedValueOnce(CREDENTIAL);
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Save passkey' }));
    const named = screen.getByRole('form', { name: 'Name the passkey' });
    expect((await within(named).findByRole('alert')).textContent).toMatch(said);
  });

  it('refuses a wrong password before the browser is asked', async () => {
    serve();
    const user = userEvent.setup();
    await renderSection();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const form = screen.getByRole('form', { name: 'Add a passkey' });
    await user.type(within(form).getByLabelText('Current password'), 'not my password');
    await user.click(within(form).getByRole('button', { name: 'Continue' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/not your current/);
    expect(browser.startRegistration).not.toHaveBeenCalled();
  });

  it('renames one in a dialog', async () => {
    const server = serve();
    const user = userEvent.setup();
    await renderSection();
    await user.click(await screen.findByRole('button', { name: 'Rename the passkey Work laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename passkey' });
    const field = within(dialog).getByLabelText('Name');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByText('Required')).toBeTruthy();
    await user.type(field, 'Old laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Old laptop')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.sent()).toContain('PATCH v1/users/me/passkeys/pk1 {"name":"Old laptop"}');
  });

  it('removes one once asked and confirmed with the password', async () => {
    const server = serve([LAPTOP, PHONE]);
    const user = userEvent.setup();
    await renderSection();
    await user.click(await screen.findByRole('button', { name: 'Remove the passkey Work laptop' }));
    const question = { name: 'Remove the passkey “Work laptop”?' };
    const dialog = screen.getByRole('alertdialog', question);
    expect(within(dialog).getByText(/no longer signs you in/)).toBeTruthy();
    const password = within(dialog).getByLabelText('Current password');
    await user.type(password, 'not my password');
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/not your current/);

    await user.clear(password);
    await user.type(password, 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog', question)).toBeNull());
    const list = screen.getByRole('list', { name: 'Your passkeys' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Phone')]);
    expect(server.sent()).toContain('DELETE v1/users/me/passkeys/pk1 {"password":"my password"}');
  });

  it('says why, and offers nothing, in a browser without WebAuthn', async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    serve([LAPTOP]);
    await renderSection();
    expect(screen.getByText(/This browser cannot make or use passkeys/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
