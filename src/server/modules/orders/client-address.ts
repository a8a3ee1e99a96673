import crypto from 'node:crypto';
import net from 'node:net';

/**
 * The client address an order was placed from, as the keyed hash the orders table keeps (HMAC-SHA256 with the app's
 * secret): the per-address hold cap compares these, and the address itself (personal data) is never stored. An IPv6
 * address counts by its /64, the block one subscriber is usually given (else every address of it would be a new
 * holder); an IPv4-mapped IPv6 address counts as its IPv4 address. Null when the address is unknown.
 */
export function clientAddressKey(secret: string, address: string | undefined): string | null {
  const holder = addressHolder(address);
  if (holder === null) return null;
  return crypto.createHmac('sha256', secret).update(`order-hold-address:${holder}`).digest('base64url');
}

function addressHolder(address: string | undefined): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv4(address)) return address;
  const bare = address.split('%')[0] ?? '';
  if (!net.isIPv6(bare)) return address;
  return `${expandIpv6(bare).slice(0, 4).join(':')}::/64`;
}

/** An IPv6 address's eight groups, as four-digit lower-case hex (an embedded IPv4 tail becomes its two groups). */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  const ipv4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (ipv4Tail?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Tail[1].split('.').map(Number);
    text = `${text.slice(0, -ipv4Tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...tailGroups];
  return groups.map((group) => group.padStart(4, '0'));
}
