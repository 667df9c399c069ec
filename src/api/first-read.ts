/**
 * The read src/boot.ts made before the app's scripts ran: on a record's page it asks the API
 * for the record, with the session in the page's storage, to draw the page's heading at once.
 * The app's own first request for the same address, with the same token, takes that answer
 * instead of asking again; once, and only a successful one (anything else is asked again, with
 * the app's refresh and error handling).
 */
interface FirstRead {
  url: string;
  authorization: string;
  answer: Promise<Response>;
}

declare global {
  interface Window {
    avatarStudioFirstRead?: FirstRead;
  }
}

export async function takeFirstRead(request: Request): Promise<Response | undefined> {
  const read = typeof window === 'undefined' ? undefined : window.avatarStudioFirstRead;
  if (
    !read ||
    request.method !== 'GET' ||
    request.url !== read.url ||
    request.headers.get('authorization') !== read.authorization
  ) {
    return undefined;
  }
  delete window.avatarStudioFirstRead;
  const response = await read.answer.catch(() => undefined);
  return response?.ok ? response : undefined;
}
