/**
 * Which link of the navigation bar is the current page's: the one whose path is the longest
 * prefix of the location (whole segments), so /users/invitations is Invitations' and not also
 * Users', /assets/123 is Assets', and / is the dashboard's only when nothing else matches.
 * Exactly one link, or none, is current.
 */
export function currentLink(pathname: string, targets: readonly string[]): string | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  const within = (to: string) =>
    to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`);
  return targets.filter(within).sort((a, b) => b.length - a.length)[0];
}
