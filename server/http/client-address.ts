/**
 * The client a request came from, for per-client limits. Behind a reverse proxy
 * (`TRUST_PROXY=true`) it is the last `X-Forwarded-For` entry, the one the proxy itself added;
 * earlier entries are whatever the client sent and are never trusted.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../config';

/** The address a request came from, as the socket or the trusted proxy names it. */
export function remoteAddress(c: Context, config: Pick<Config, 'trustProxy'>): string {
  return addressOf(c.req.header('x-forwarded-for'), config, () => {
    try {
      return getConnInfo(c).remote.address;
    } catch {
      // Requests made in process (app.request in tests) have no socket.
      return undefined;
    }
  });
}

/**
 * The address of a request with this `X-Forwarded-For` header, trusted only behind a proxy,
 * else `socketAddress()`: the rule of `remoteAddress` for a request Hono has not seen yet.
 */
export function addressOf(
  forwardedFor: string | undefined,
  config: Pick<Config, 'trustProxy'>,
  socketAddress: () => string | undefined,
): string {
  if (config.trustProxy) {
    const forwarded = forwardedFor?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress() ?? 'unknown';
}

/** The key of the client a request came from in every per-client limit: see `clientKey`. */
export function clientAddress(c: Context, config: Pick<Config, 'trustProxy'>): string {
  return clientKey(remoteAddress(c, config));
}

/**
 * The client an address belongs to: an IPv4 address itself, an IPv6 address its /64 (one host
 * or home network has a whole /64 to pick from, so one address each would be a fresh allowance
 * per request), an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) its IPv4 address. A port that
 * a proxy appended is dropped; anything else is kept as it is.
 */
export function clientKey(address: string): string {
  const ip = withoutPort(address.trim());
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return address;
  const groups = ipv6Groups(ip.split('%')[0]!);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** `[v6]:port` and `v4:port` without the port. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  const v4 = /^([\d.]+):\d+$/.exec(address);
  return v4 && isIP(v4[1]!) ? v4[1]! : address;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail converted). */
function ipv6Groups(ip: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = ip.split('::');
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
