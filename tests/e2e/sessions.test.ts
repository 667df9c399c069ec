/**
 * Sessions end when they are ended: two browsers signed in as the same user; one ends the
 * other's session (DELETE /v1/users/me/sessions/{id}); the other's next request fails and
 * lands on /signin?reason=login_required, while the first keeps working.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage } from '../helpers/app';

const app = appUnderTest();

/** The access token the page keeps in its storage. */
async function storedToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const record = JSON.parse(localStorage.getItem('persist:user') ?? '{}') as {
      data?: { token?: string };
    };
    return record.data?.token ?? '';
  });
}

/** The session (`sid` claim) an access token names. */
function sessionOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    sid: string;
  };
  return payload.sid;
}

describe('ending a session', () => {
  it("makes the other browser's next request fail and land on /signin?reason=login_required", async () => {
    const first = await signedInPage(app);
    const second = await signedInPage(app);
    await second.getByText('Total').waitFor();
    const firstToken = await storedToken(first);
    const secondSession = sessionOf(await storedToken(second));
    expect(secondSession).not.toBe(sessionOf(firstToken));

    // The refusal is read on its way to the page, which leaves for /signin as soon as it has
    // it (a body read afterwards is gone with the page it came to). Watched from before the
    // session ends: the second browser's event stream also ends with it, and the app may meet
    // the refusal on its own reconnect first.
    let refusal: unknown;
    await second.route('**/v1/auth/refresh', async (route) => {
      const response = await route.fetch();
      if (response.status() === 401) refusal ??= await response.json();
      await route.fulfill({ response });
    });
    const ended = await fetch(`${app.server.url}/v1/users/me/sessions/${secondSession}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${firstToken}` },
    });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ data: { ended: 1 } });

    // The second browser's access token has not expired, yet its next request is refused; the
    // refresh that follows is refused too, which ends the session in the app. The request goes
    // through the app's own client, not a reload: a reload while the app is already signing
    // out would open the page with no session at all.
    await second
      .evaluate(() =>
        (
          window as unknown as Record<string, { request(path: string): Promise<unknown> }>
        ).avatarStudio!.request('v1/assets?limit=1'),
      )
      .catch(() => undefined);
    await second.waitForURL(/\/signin\?reason=login_required/);
    expect(refusal).toMatchObject({ message: 'Refresh token revoked' });
    await second.getByText('Your session has ended. Please sign in again.').waitFor();

    // The first browser is still signed in.
    await first.reload();
    await first.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await first.getByText('Total').waitFor();
    expect(new URL(first.url()).pathname).toBe('/');
    await Promise.all([first.context().close(), second.context().close()]);
  });
});
